import { createHash } from "node:crypto";
import { findRepository, withRepository, type GitRepository } from "./git-runner";

export interface GitCommitInfo {
  hash: string;
  shortHash: string;
  date: string;
  subject: string;
  message: string;
}

export interface GitBranchInfo {
  /** As `git branch -a --format=%(refname:short)` prints it: `main`, `origin/feature/x`. */
  name: string;
  lastCommitDate: string;
  recent: { shortHash: string; subject: string; date: string }[];
}

/** How many commits of `git log --all` the index keeps; older history is not searched. */
export const MAX_INDEXED_COMMITS = 20_000;
const RECENT_PER_BRANCH = 5;
const MAX_BRANCHES_WITH_RECENTS = 500;

/**
 * Runs `fn` on the repository `dir` is in, through a shadow git folder (lib/core/git-runner):
 * git never reads the repository's own configuration. Throws when there is no repository.
 */
async function onRepository<T>(dir: string, fn: (repo: GitRepository) => Promise<T>): Promise<T> {
  const loc = findRepository(dir);
  if (!loc) throw new Error(`${dir} is not in a git repository.`);
  return withRepository(loc, fn);
}

export async function isGitRepo(dir: string): Promise<boolean> {
  return findRepository(dir) !== null;
}

/**
 * Changes whenever any ref or HEAD moves; equal fingerprints mean the git phase can be skipped.
 * `undefined`: the folder is not in a git repository; `null`: it is, but its refs cannot be read.
 * One git process (`show-ref --head`), since a no-change re-index pays for every spawn.
 */
export async function gitFingerprint(dir: string): Promise<string | null | undefined> {
  const loc = findRepository(dir);
  if (!loc) return undefined;
  try {
    // HEAD and every ref with its object; an empty repository prints nothing (exit code 1).
    const refs = await withRepository(loc, (repo) => repo.run(["show-ref", "--head"], { okExitCodes: [1] }));
    return createHash("sha256").update(refs).digest("hex");
  } catch {
    return null;
  }
}

const SEP = "\x1f";
/** Nothing but the commits: no signature checks, mailmap, notes or diff drivers, whatever a config says. */
const LOG_FLAGS = ["--no-show-signature", "--no-mailmap", "--no-notes", "--no-textconv", "--no-ext-diff"];
const REC = "\x1e";

export function readBranches(dir: string): Promise<GitBranchInfo[]> {
  return onRepository(dir, (repo) => branchesOf(repo));
}

async function branchesOf(repo: GitRepository): Promise<GitBranchInfo[]> {
  const out = await repo.run(["for-each-ref", "--sort=-committerdate", `--format=%(refname:short)${SEP}%(committerdate:iso-strict)${SEP}%(refname)`, "refs/heads", "refs/remotes"]);
  const rows = out
    .split("\n")
    .filter(Boolean)
    .map((l) => l.split(SEP))
    .filter((p) => !p[2]?.endsWith("/HEAD"));
  const branches: GitBranchInfo[] = [];
  for (const [i, p] of rows.entries()) {
    const name = p[0]!;
    let recent: GitBranchInfo["recent"] = [];
    if (i < MAX_BRANCHES_WITH_RECENTS) {
      const log = await repo.run(["log", ...LOG_FLAGS, `--format=%h${SEP}%s${SEP}%cI`, `-${RECENT_PER_BRANCH}`, p[2]!, "--"]);
      recent = log
        .split("\n")
        .filter(Boolean)
        .map((l) => {
          const [shortHash = "", subject = "", date = ""] = l.split(SEP);
          return { shortHash, subject, date };
        });
    }
    branches.push({ name, lastCommitDate: p[1] ?? "", recent });
  }
  return branches;
}

/** `git log --all` newest first, as many as MAX_INDEXED_COMMITS. */
export async function readCommits(dir: string, max = MAX_INDEXED_COMMITS): Promise<GitCommitInfo[]> {
  const out = await onRepository(dir, (repo) => repo.run(["log", ...LOG_FLAGS, "--all", `-n${max}`, `--format=%H${SEP}%h${SEP}%cI${SEP}%s${SEP}%B${REC}`]));
  return out
    .split(REC)
    .map((r) => r.replace(/^\n/, ""))
    .filter((r) => r.includes(SEP))
    .map((r) => {
      const [hash = "", shortHash = "", date = "", subject = "", message = ""] = r.split(SEP);
      return { hash, shortHash, date, subject, message: message.trim() };
    });
}
