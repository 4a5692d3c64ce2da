import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { WorkbenchError } from "../core/errors";
import { syncDir } from "../core/fs/atomic-write";
import { findRepositoryAt, openRepository, runGit, type GitRepository } from "../core/git-runner";
import { dataDir } from "../db/database-url";
import { isSafeBranch } from "./schemas";
import { processAlive } from "../core/process-alive";

export { branchName, isSafeBranch, remoteUrl, remoteUrlProblem } from "./schemas";

/** Where every checkout of a remote lives; nothing outside it is ever written or removed. */
export function remotesRoot(): string {
  return path.join(dataDir(), "remotes");
}

/**
 * The checkout folder of a remote and branch: a readable slug plus a hash of both, so the
 * same remote added twice finds its project, and nothing in the URL reaches the path.
 */
export function checkoutDirFor(url: string, branch?: string): string {
  const last =
    url
      .replace(/[/\\]+$/, "")
      .replace(/\.git$/i, "")
      .split(/[/:\\]/)
      .pop() ?? "";
  const slug =
    last
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "repo";
  const hash = createHash("sha256")
    .update(`${url}\n${branch ?? ""}`)
    .digest("hex")
    .slice(0, 12);
  return insideRemotes(path.join(remotesRoot(), `${slug}-${hash}`));
}

/** The repository's name as a default project name. */
export function nameFromUrl(url: string): string {
  return (
    url
      .replace(/[/\\]+$/, "")
      .replace(/\.git$/i, "")
      .split(/[/:\\]/)
      .pop() || "repository"
  );
}

function insideRemotes(dir: string): string {
  const rel = path.relative(remotesRoot(), dir);
  if (!rel || rel.startsWith("..") || path.isAbsolute(rel)) throw new WorkbenchError("UNSAFE_PATH", "The checkout folder would leave the data directory.");
  return dir;
}

/** Removes one of our checkouts; refuses any folder outside `<dataDir>/remotes`. */
export function removeCheckout(dir: string): void {
  fs.rmSync(insideRemotes(dir), { recursive: true, force: true });
}

const CLONE_TIMEOUT_MS = 10 * 60_000;

/** A clone's temporary folder: `.clone-<pid>-<random>`, so a later clone knows whose it was. */
const CLONE_PREFIX = ".clone-";

/** Removes the temporary folders of clones whose process died (killed mid-clone); a running clone's stays. */
function removeDeadClones(): void {
  for (const name of fs.readdirSync(remotesRoot())) {
    const m = /^\.clone-(\d+)-/.exec(name);
    if (m && !processAlive(Number(m[1]))) fs.rmSync(path.join(remotesRoot(), name), { recursive: true, force: true });
  }
}

/**
 * Flushes the files of the filesystem holding `dir` to the disk (syncfs, through coreutils'
 * `sync --file-system`): git fsyncs its packs but not the files a checkout writes, and fsyncing
 * each of tens of thousands would cost more than the clone. Best effort, like syncDir.
 */
function syncFileSystem(dir: string): Promise<void> {
  return new Promise((resolve) => {
    execFile("sync", ["--file-system", dir], { timeout: CLONE_TIMEOUT_MS }, () => resolve());
  });
}

/**
 * A remote on this machine (file:// or an absolute path) is a repository the Workbench does not
 * own: git's upload-pack would run in it under its own configuration. It is served from a
 * shadow git folder instead (lib/core/git-runner), so only our configuration applies there.
 * Returns the URL to give git and the shadow to close; network remotes pass through.
 */
async function servedUrl(url: string): Promise<{ from: string; shadow: GitRepository | null }> {
  const local = url.startsWith("/") ? url : /^file:\/\//i.test(url) ? decodeURIComponent(new URL(url).pathname) : null;
  if (local === null) return { from: url, shadow: null };
  const loc = findRepositoryAt(local);
  if (!loc) throw new Error(`fatal: no git repository at ${local}`);
  const shadow = await openRepository(loc);
  return { from: `file://${shadow.gitDir}`, shadow };
}

/** git in one of our checkouts (whose configuration is ours): only our settings, no network. */
function inCheckout(dir: string, args: Parameters<typeof runGit>[0]): Promise<string> {
  return runGit(args, { gitDir: path.join(dir, ".git"), workTree: dir, timeoutMs: CLONE_TIMEOUT_MS }).then((s) => s.trim());
}

/** git's own complaint (its fatal/error lines), short enough to show and store. */
export function gitMessage(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const picked = lines.filter((l) => /^(fatal|error):/i.test(l));
  return (picked.length ? picked : lines.slice(0, 1)).join(" ").slice(0, 500) || "git failed.";
}

/**
 * Clones `url` into `dest` (replacing a leftover folder there) and returns the branch it
 * tracks. The clone goes to a temporary folder first, so a failure leaves nothing behind.
 */
export async function cloneRemote(url: string, branch: string | undefined, dest: string): Promise<{ branch: string; head: string }> {
  insideRemotes(dest);
  fs.mkdirSync(remotesRoot(), { recursive: true });
  removeDeadClones();
  const tmp = fs.mkdtempSync(path.join(remotesRoot(), `${CLONE_PREFIX}${process.pid}-`));
  const { from, shadow } = await servedUrl(url).catch((e: unknown) => {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw new WorkbenchError("UNREADABLE", `Could not clone ${url}: ${gitMessage(e)}`, e);
  });
  try {
    // Full history of one branch: the git panel reads up to MAX_INDEXED_COMMITS commits. No
    // templates (no hooks) and no checkout yet: the files are written below, without the
    // operator's global configuration (whose filter drivers the repository's attributes could name).
    const opts = ["--template=", "--no-checkout", "--single-branch", "--no-recurse-submodules", ...(branch ? ["--branch", branch] : [])];
    await runGit(["clone", ...opts, "--", from, tmp], { transport: true, timeoutMs: CLONE_TIMEOUT_MS }).catch((e: unknown) => {
      throw new WorkbenchError("UNREADABLE", `Could not clone ${url}: ${gitMessage(e)}`, e);
    });
    const head = await inCheckout(tmp, ["rev-parse", "--verify", "-q", "HEAD"]).catch(() => "");
    if (!head) throw new WorkbenchError("UNREADABLE", `${url} has no commits${branch ? ` on ${branch}` : ""} yet.`);
    const tracked = branch ?? (await inCheckout(tmp, ["symbolic-ref", "--short", "HEAD"]));
    if (!isSafeBranch(tracked)) throw new WorkbenchError("UNREADABLE", `${url} has a default branch the Workbench does not accept; give a branch.`);
    // The shadow's URL was only for this clone; origin names the remote as the user gave it.
    await inCheckout(tmp, ["remote", "set-url", "origin", url]);
    await inCheckout(tmp, ["reset", "--hard", "-q", "HEAD"]);
    // On disk before it takes the checkout's name, and the name before the project row naming
    // it is stored: after a power loss the checkout is whole or absent (then cloned again).
    await syncFileSystem(tmp);
    fs.rmSync(dest, { recursive: true, force: true });
    fs.renameSync(tmp, dest);
    syncDir(remotesRoot());
    return { branch: tracked, head };
  } finally {
    shadow?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Brings a checkout to the remote's tip of `branch`. The checkout is ours and read-only to
 * users, so a hard reset (not a merge) is right and never conflicts. Fetched from `url` (the
 * project's remote as registered), not from whatever the checkout's config calls origin.
 */
export async function fetchRemote(dir: string, url: string, branch: string): Promise<{ changed: boolean; head: string }> {
  insideRemotes(dir);
  if (!isSafeBranch(branch)) throw new WorkbenchError("INVALID_INPUT", "branch: not a branch name the Workbench accepts.");
  let shadow: GitRepository | null = null;
  try {
    const before = await inCheckout(dir, ["rev-parse", "--verify", "-q", "HEAD"]).catch(() => "");
    const served = await servedUrl(url);
    shadow = served.shadow;
    await runGit(["fetch", "--prune", "--no-recurse-submodules", "--", served.from, `+refs/heads/${branch}:refs/remotes/origin/${branch}`], {
      transport: true,
      gitDir: path.join(dir, ".git"),
      timeoutMs: CLONE_TIMEOUT_MS,
    });
    await inCheckout(dir, ["reset", "--hard", "-q", `refs/remotes/origin/${branch}`]);
    const head = await inCheckout(dir, ["rev-parse", "HEAD"]);
    return { changed: head !== before, head };
  } catch (e) {
    if (e instanceof WorkbenchError) throw e;
    throw new WorkbenchError("UNREADABLE", `Could not fetch ${branch}: ${gitMessage(e)}`, e);
  } finally {
    shadow?.close();
  }
}
