import { createHash } from "node:crypto";
import { simpleGit, type SimpleGit } from "simple-git";
import { readEnv } from "./env";

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

function git(dir: string): SimpleGit {
  // Never prompt, never page, never read the user's global hooks or pager config.
  // A minimal environment: simple-git refuses inherited variables such as EDITOR, and
  // nothing from the caller's environment should change what git reports.
  return simpleGit({ baseDir: dir, maxConcurrentProcesses: 4, trimmed: false, allowEnvironment: ["GIT_CONFIG_NOSYSTEM", "GIT_TERMINAL_PROMPT"] }).env({
    PATH: readEnv("PATH") ?? "/usr/bin:/bin",
    HOME: readEnv("HOME") ?? "/tmp",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    LC_ALL: "C",
  });
}

export async function isGitRepo(dir: string): Promise<boolean> {
  try {
    const out = await git(dir).raw(["rev-parse", "--show-toplevel"]);
    return out.trim().length > 0;
  } catch {
    return false;
  }
}

/**
 * Changes whenever any ref or HEAD moves; equal fingerprints mean the git phase can be skipped.
 * `undefined`: the folder is not in a git repository; `null`: it is, but its refs cannot be read.
 * One git process (`show-ref --head`), since a no-change re-index pays for every spawn.
 */
export async function gitFingerprint(dir: string): Promise<string | null | undefined> {
  try {
    // HEAD and every ref with its object; an empty repository prints nothing and succeeds.
    const refs = await git(dir).raw(["show-ref", "--head"]);
    return createHash("sha256").update(refs).digest("hex");
  } catch {
    return (await isGitRepo(dir)) ? null : undefined;
  }
}

const SEP = "\x1f";
const REC = "\x1e";

export async function readBranches(dir: string): Promise<GitBranchInfo[]> {
  const g = git(dir);
  const out = await g.raw(["for-each-ref", "--sort=-committerdate", `--format=%(refname:short)${SEP}%(committerdate:iso-strict)${SEP}%(refname)`, "refs/heads", "refs/remotes"]);
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
      const log = await g.raw(["log", `--format=%h${SEP}%s${SEP}%cI`, `-${RECENT_PER_BRANCH}`, p[2]!, "--"]);
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
  const out = await git(dir).raw(["log", "--all", `-n${max}`, `--format=%H${SEP}%h${SEP}%cI${SEP}%s${SEP}%B${REC}`]);
  return out
    .split(REC)
    .map((r) => r.replace(/^\n/, ""))
    .filter((r) => r.includes(SEP))
    .map((r) => {
      const [hash = "", shortHash = "", date = "", subject = "", message = ""] = r.split(SEP);
      return { hash, shortHash, date, subject, message: message.trim() };
    });
}
