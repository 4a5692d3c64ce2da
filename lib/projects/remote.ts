import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { simpleGit, type SimpleGit } from "simple-git";
import { readEnv } from "../core/env";
import { WorkbenchError } from "../core/errors";
import { dataDir } from "../db/database-url";
import { isSafeBranch } from "./schemas";

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

function remoteGit(dir: string): SimpleGit {
  // No prompts (a server has nobody to answer; ssh too, which would ask for passwords or
  // unknown host keys), no system config, and only the transports the URL check accepts.
  // The ssh command is our constant, which is why simple-git's guard may be lifted.
  return simpleGit({
    baseDir: dir,
    trimmed: true,
    timeout: { block: CLONE_TIMEOUT_MS },
    unsafe: { allowUnsafeSshCommand: true },
    allowEnvironment: ["GIT_CONFIG_NOSYSTEM", "GIT_TERMINAL_PROMPT", "GIT_ALLOW_PROTOCOL", "GIT_SSH_COMMAND"],
  }).env({
    PATH: readEnv("PATH") ?? "/usr/bin:/bin",
    HOME: readEnv("HOME") ?? "/tmp",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_ALLOW_PROTOCOL: "https:ssh:file",
    GIT_SSH_COMMAND: "ssh -o BatchMode=yes",
    LC_ALL: "C",
  });
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
  const tmp = fs.mkdtempSync(path.join(remotesRoot(), ".clone-"));
  try {
    const g = remoteGit(remotesRoot());
    // Full history of one branch: the git panel reads up to MAX_INDEXED_COMMITS commits.
    const opts = ["--single-branch", "--no-recurse-submodules", ...(branch ? ["--branch", branch] : [])];
    await g.raw(["clone", ...opts, "--", url, tmp]).catch((e: unknown) => {
      throw new WorkbenchError("UNREADABLE", `Could not clone ${url}: ${gitMessage(e)}`, e);
    });
    const c = remoteGit(tmp);
    const head = await c.raw(["rev-parse", "--verify", "-q", "HEAD"]).catch(() => "");
    if (!head) throw new WorkbenchError("UNREADABLE", `${url} has no commits${branch ? ` on ${branch}` : ""} yet.`);
    const tracked = branch ?? (await c.raw(["symbolic-ref", "--short", "HEAD"]));
    if (!isSafeBranch(tracked)) throw new WorkbenchError("UNREADABLE", `${url} has a default branch the Workbench does not accept; give a branch.`);
    fs.rmSync(dest, { recursive: true, force: true });
    fs.renameSync(tmp, dest);
    return { branch: tracked, head };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Brings a checkout to the remote's tip of `branch`. The checkout is ours and read-only to
 * users, so a hard reset (not a merge) is right and never conflicts.
 */
export async function fetchRemote(dir: string, branch: string): Promise<{ changed: boolean; head: string }> {
  insideRemotes(dir);
  if (!isSafeBranch(branch)) throw new WorkbenchError("INVALID_INPUT", "branch: not a branch name the Workbench accepts.");
  const g = remoteGit(dir);
  try {
    const before = await g.raw(["rev-parse", "--verify", "-q", "HEAD"]).catch(() => "");
    await g.raw(["fetch", "--prune", "--no-recurse-submodules", "origin", `+refs/heads/${branch}:refs/remotes/origin/${branch}`]);
    await g.raw(["reset", "--hard", "-q", `refs/remotes/origin/${branch}`]);
    const head = await g.raw(["rev-parse", "HEAD"]);
    return { changed: head !== before, head };
  } catch (e) {
    if (e instanceof WorkbenchError) throw e;
    throw new WorkbenchError("UNREADABLE", `Could not fetch ${branch}: ${gitMessage(e)}`, e);
  }
}
