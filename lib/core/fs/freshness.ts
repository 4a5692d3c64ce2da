import fs from "node:fs";
import path from "node:path";
import type { GitLocationEnv } from "../env-plain";

/**
 * Whether a project on disk is still exactly what its last index read, decided from file
 * metadata alone, without loading the indexer: every path the index job looked at (each file
 * it read or probed, each folder it listed, the git refs) with what `lstat` said of it then.
 *
 * A folder's change time moves whenever an entry is added, removed or renamed in it, and a
 * file's whenever its content or attributes change (the change time cannot be set back by a
 * tool, unlike the modification time), so an equal record means an equal listing and equal
 * contents. A link's target is compared, not the link. Entries whose times fall within
 * RACY_MS of the index's start could have changed again within the clock's resolution
 * after being read: a record holding one is not kept (the next run reads and records again).
 *
 * Part of the file layer: it looks at metadata only (lstat, and realpath and stat for a link
 * inside the root), never past a link out of the root, and outside the root only at whether a
 * `.git` exists in a folder above it, as git itself looks. Only node:fs here: `workbench
 * load-context` asks this before it loads any of the indexer.
 */

/** Raised when what the indexer reads changes in a way this record cannot show (bump on such changes). */
export const FRESHNESS_VERSION = 1;
/** A time this close to the index's start (or after it) is not trusted to tell a later change apart. */
export const RACY_MS = 2_000;

/**
 * One observed path: [relPath, kind, size, ctimeMs, mtimeMs, ino]. Kinds: f file, d folder,
 * m missing, o a link out of the project (its target is never looked at), x anything else
 * (special files, loops, errors: compared by kind and error only).
 */
export type Observation = [rel: string, kind: "f" | "d" | "m" | "o" | "x", size: number, ctimeMs: number, mtimeMs: number, ino: number];

/** What a walk's stat said of a file when it listed it (turned into an Observation when the record is taken). */
export interface ListedFile {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

/** A path an index job looked at: what its walk saw of it, or undefined (looked at when the record is taken). */
export type Seen = ListedFile | undefined;

/** How git was seen: its refs as observations, or no repository in the root or above it. */
export type GitObservation = { kind: "repo" } | { kind: "none"; above: string[] };

export interface FreshnessRecord<S = unknown> {
  version: number;
  /** When the index job started reading (epoch ms). */
  takenAt: number;
  entries: Observation[];
  git: GitObservation;
  /** What the index job reported, answered again when nothing changed. */
  stats: S;
}

const GIT_DIR = ".git";

/** What lstat (and, for a link inside the root, stat of its target) says of one path now. */
export function observe(root: string, rel: string): Observation {
  const abs = rel === "" || rel === "." ? root : root + path.sep + rel.split("/").join(path.sep);
  let st: fs.Stats;
  try {
    st = fs.lstatSync(abs);
    if (st.isSymbolicLink()) {
      const real = fs.realpathSync.native(abs);
      if (real !== root && !real.startsWith(root + path.sep)) return [rel, "o", 0, 0, 0, 0];
      st = fs.statSync(real);
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? [rel, "m", 0, 0, 0, 0] : [rel, "x", 0, 0, 0, errorNumber(code)];
  }
  const kind = st.isFile() ? "f" : st.isDirectory() ? "d" : "x";
  // A folder's size says nothing the change time does not; a special file is compared by kind.
  if (kind === "x") return [rel, "x", 0, 0, 0, -1];
  return [rel, kind, kind === "f" ? st.size : 0, st.ctimeMs, st.mtimeMs, st.ino];
}

function errorNumber(code: string | undefined): number {
  let n = 0;
  for (const ch of code ?? "") n = (n * 31 + ch.charCodeAt(0)) | 0;
  return n;
}

function same(a: Observation, b: Observation): boolean {
  return a[1] === b[1] && a[2] === b[2] && a[3] === b[3] && a[4] === b[4] && a[5] === b[5];
}

/** The paths of the repository's refs that `git show-ref --head` answers from, relative to the root. */
function gitRefPaths(root: string): string[] {
  const out = [`${GIT_DIR}/HEAD`, `${GIT_DIR}/packed-refs`, `${GIT_DIR}/refs`];
  const walk = (rel: string) => {
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of names) {
      const child = `${rel}/${d.name}`;
      out.push(child);
      if (d.isDirectory()) walk(child);
    }
  };
  walk(`${GIT_DIR}/refs`);
  return out;
}

/** Folders above the root that would hold a repository git finds from the root (each `…/.git`). */
function gitDirsAbove(root: string): string[] {
  const out: string[] = [];
  for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
    out.push(path.join(dir, GIT_DIR));
    if (path.dirname(dir) === dir) return out;
  }
}

/**
 * How git looks from the root, or null when this record cannot follow it: a `.git` file (a
 * worktree or submodule, whose refs live elsewhere), a repository above the root, or git
 * told where to look by the environment. Such projects are simply re-indexed every time.
 */
function observeGit(root: string, env: GitLocationEnv): { git: GitObservation; paths: string[] } | null {
  if (env.GIT_DIR || env.GIT_WORK_TREE || env.GIT_COMMON_DIR) return null;
  const own = observe(root, GIT_DIR);
  if (own[1] === "d") return { git: { kind: "repo" }, paths: gitRefPaths(root) };
  if (own[1] !== "m") return null;
  const above = gitDirsAbove(root);
  if (above.some((p) => fs.existsSync(p))) return null;
  return { git: { kind: "none", above }, paths: [GIT_DIR] };
}

/**
 * The record of an index job that started at `takenAt` and looked at `paths` (with what a walk
 * saw of a file when it listed it, else looked at now), or null when it cannot be trusted (a
 * time within RACY_MS of the start, or git out of reach).
 */
export function takeFreshness<S>(root: string, paths: ReadonlyMap<string, Seen>, takenAt: number, stats: S, env: GitLocationEnv): FreshnessRecord<S> | null {
  const git = observeGit(root, env);
  if (!git) return null;
  const all = new Map(paths);
  for (const p of git.paths) if (!all.has(p)) all.set(p, undefined);
  const entries: Observation[] = [];
  for (const [rel, seen] of all) {
    const o: Observation = seen ? [rel, "f", seen.size, seen.ctimeMs, seen.mtimeMs, seen.ino] : observe(root, rel);
    if (Math.max(o[3], o[4]) >= takenAt - RACY_MS) return null;
    entries.push(o);
  }
  return { version: FRESHNESS_VERSION, takenAt, entries, git: git.git, stats };
}

/** True when every path of the record looks as it did: the index is current without reading anything. */
export function stillFresh(root: string, record: FreshnessRecord, env: GitLocationEnv): boolean {
  if (record.version !== FRESHNESS_VERSION) return false;
  if (env.GIT_DIR || env.GIT_WORK_TREE || env.GIT_COMMON_DIR) return false;
  if (record.git.kind === "none" && record.git.above.some((p) => fs.existsSync(p))) return false;
  for (const e of record.entries) if (!same(e, observe(root, e[0]))) return false;
  return true;
}

/**
 * A record read back from the database, checked for shape by hand: it is the Workbench's own
 * format, written by takeFreshness, and the start path that reads it must not load zod
 * (see lib/core/env-plain.ts).
 */
export function parseFreshness(text: string): FreshnessRecord | null {
  try {
    const r = JSON.parse(text) as Partial<FreshnessRecord>;
    if (r.version !== FRESHNESS_VERSION || typeof r.takenAt !== "number" || !Array.isArray(r.entries) || typeof r.git !== "object" || r.git === null) return null;
    return r as FreshnessRecord;
  } catch {
    return null;
  }
}
