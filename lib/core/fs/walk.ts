import fs from "node:fs";
import path from "node:path";
import type { FileWarning } from "../warnings";
import { WALK_LIMITS } from "./limits";
import { describeSpecial } from "./refusal";
import { type DirListing, kindAsStats, listDirs, STAT_FIELDS, TOO_LONG } from "./dir-listing";
import { listElsewhere, type PendingListing } from "./listing-worker";

export interface WalkOptions {
  /** Folder depth below the start (default WALK_LIMITS.maxDepth). */
  maxDepth?: number;
  /** Entries visited before the walk stops and says so (default WALK_LIMITS.maxEntries). */
  maxEntries?: number;
  /** Let the listing worker list part of a large tree (default true). */
  parallel?: boolean;
}

export interface WalkContext {
  /** The project root's real path. */
  root: string;
  startRel: string;
  startReal: string;
  report(relPath: string, code: FileWarning["code"], message: string): void;
  /** Told the real path of each folder the walk lists. */
  onFolder?(real: string): void;
  /** Told each file the walk returns, with what its stat said when listed. */
  onFile?(rel: string, st: { size: number; mtimeMs: number; ctimeMs: number; ino: number }): void;
}

export interface WalkedFile {
  relPath: string;
  size: number;
  mtimeMs: number;
}

interface PendingLink {
  rel: string;
  abs: string;
  /** Real path of the folder holding the link. */
  parentReal: string;
  depth: number;
}

const SKIPPED_NAMES = [".git", "node_modules"];
/** A tree is shared with the listing worker only from this many folders side by side. */
const SHARE_FROM_FOLDERS = 8;
/** How far down a chain of single folders the walk looks for that many. */
const SHARE_SEARCH_DEPTH = 3;

/**
 * Every regular file below a folder, stat only. Synchronous on purpose: for tens of
 * thousands of files it is several times faster than one promise per entry, and it is the
 * no-change re-index's main cost.
 *
 * Links are followed after the plain tree, so a file's real path wins over its aliases, and
 * each target is walked once: a link to a folder that contains it is a loop, a link to a
 * folder or file already walked is an alias; both are reported, not followed.
 */
export function walkTree(ctx: WalkContext, opts: WalkOptions = {}): WalkedFile[] {
  const maxDepth = opts.maxDepth ?? WALK_LIMITS.maxDepth;
  const maxEntries = opts.maxEntries ?? WALK_LIMITS.maxEntries;
  const out: WalkedFile[] = [];
  const visitedDirs = new Set<string>();
  const seenFiles = new Map<string, string>();
  const links: PendingLink[] = [];
  let entries = 0;
  let stopped = false;
  const inside = (real: string) => real === ctx.root || real.startsWith(ctx.root + path.sep);
  const shown = (rel: string) => rel || ".";

  interface FileStat {
    size: number;
    mtimeMs: number;
    ctimeMs: number;
    nlink: number;
    dev: number;
    ino: number;
  }
  const addFile = (rel: string, st: FileStat): void => {
    if (st.nlink > 1) {
      ctx.report(rel, "hard_link", `${rel}: a hard link (the file has ${st.nlink} names, which may lie outside the project); not read.`);
      return;
    }
    const key = `${st.dev}:${st.ino}`;
    const first = seenFiles.get(key);
    if (first !== undefined) {
      ctx.report(rel, "symlink_alias", `${rel}: a link to ${first}, which is already read; not read twice.`);
      return;
    }
    seenFiles.set(key, rel);
    out.push({ relPath: rel, size: st.size, mtimeMs: Math.floor(st.mtimeMs) });
    ctx.onFile?.(rel, st);
  };

  // Listings made ahead of the walk (the start, and what the worker listed), by real path.
  const listed = new Map<string, DirListing>();
  let pending: PendingListing | null = null;
  let handedOver: Set<string> | null = null;
  const listingOf = (real: string, depth: number): DirListing => {
    const ready = listed.get(real);
    if (ready) return ready;
    if (pending && handedOver?.has(real)) {
      for (const [k, v] of pending.take()) listed.set(k, v);
      pending = null;
      const taken = listed.get(real);
      if (taken) return taken;
    }
    return listDirs(fs, [{ real, depth }], SKIPPED_NAMES, maxDepth, maxEntries, false)[0]!;
  };
  if (opts.parallel !== false) shareWithWorker();

  /**
   * Gives the second half of the first wide level's folders to the listing worker: the walk
   * reaches them last, so by then the worker has listed them (or is close to it).
   */
  function shareWithWorker(): void {
    let at: DirListing = listDirs(fs, [{ real: ctx.startReal, depth: 0 }], SKIPPED_NAMES, maxDepth, maxEntries, false)[0]!;
    listed.set(at.real, at);
    for (let depth = 0; depth <= SHARE_SEARCH_DEPTH && depth < maxDepth; depth++) {
      const folders = at.names.flatMap((n, i) => (at.kinds[i] === "d" ? [at.real.endsWith(path.sep) ? at.real + n : at.real + path.sep + n] : []));
      if (folders.length >= SHARE_FROM_FOLDERS) {
        const theirs = folders.slice(Math.ceil(folders.length / 2));
        pending = listElsewhere(
          theirs.map((real) => ({ real, depth: depth + 1 })),
          SKIPPED_NAMES,
          maxDepth,
          maxEntries,
        );
        if (pending) handedOver = new Set(theirs);
        return;
      }
      if (folders.length !== 1) return;
      at = listDirs(fs, [{ real: folders[0]!, depth: depth + 1 }], SKIPPED_NAMES, maxDepth, maxEntries, false)[0]!;
      listed.set(at.real, at);
    }
  }

  const visit = (real: string, rel: string, depth: number): void => {
    if (stopped || visitedDirs.has(real)) return;
    visitedDirs.add(real);
    ctx.onFolder?.(real);
    const listing = listingOf(real, depth);
    if (listing.error !== undefined) {
      const code = listing.error;
      if (code === "ENAMETOOLONG") ctx.report(rel, "path_too_long", `${shown(rel)}: the path is longer than the system allows; not walked.`);
      else if (code !== "ENOENT") ctx.report(rel, "unreadable", `${shown(rel)}: the folder cannot be listed (${code}).`);
      return;
    }
    const { names, kinds, stats } = listing;
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      if (++entries > maxEntries) {
        stopped = true;
        ctx.report(rel, "walk_budget", `${shown(rel)}: the walk stopped after ${maxEntries} entries; the rest of ${shown(ctx.startRel)} is not indexed.`);
        return;
      }
      const childRel = rel ? `${rel}/${name}` : name;
      // A plain join: `real` is a resolved path and a listed name holds no separator, so
      // path.join's normalising (a measurable share of a 23,000-file walk) has nothing to do.
      const childAbs = real.endsWith(path.sep) ? real + name : real + path.sep + name;
      const kind = kinds[i]!;
      if (kind === "d") {
        if (depth < maxDepth) visit(childAbs, childRel, depth + 1);
        else ctx.report(childRel, "walk_budget", `${childRel}: more than ${maxDepth} folders below ${shown(ctx.startRel)}; not walked.`);
      } else if (kind === "f") {
        const at = i * STAT_FIELDS;
        const size = stats[at]!;
        if (size >= 0) addFile(childRel, { size, mtimeMs: stats[at + 1]!, nlink: stats[at + 2]!, dev: stats[at + 3]!, ino: stats[at + 4]!, ctimeMs: stats[at + 5]! });
        else if (size === TOO_LONG) ctx.report(childRel, "path_too_long", `${childRel}: the path is longer than the system allows; not read.`);
        // else: it vanished between readdir and stat, or cannot be stat'ed: not listed
      } else if (kind === "l") {
        links.push({ rel: childRel, abs: childAbs, parentReal: real, depth });
      } else {
        ctx.report(childRel, "not_regular", `${childRel}: ${describeSpecial(kindAsStats(kind))}; not read.`);
      }
    }
  };

  visit(ctx.startReal, ctx.startRel, 0);
  // Links found while following links are appended and handled in turn.
  for (let i = 0; i < links.length && !stopped; i++) followLink(links[i]!);

  function followLink(l: PendingLink): void {
    let target: string;
    try {
      target = fs.realpathSync.native(l.abs);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ELOOP") ctx.report(l.rel, "symlink_loop", `${l.rel}: a symbolic link loop; not followed.`);
      else if (code === "ENAMETOOLONG") ctx.report(l.rel, "path_too_long", `${l.rel}: the path is longer than the system allows; not read.`);
      else ctx.report(l.rel, "unreadable", `${l.rel}: a link to nothing; skipped.`);
      return;
    }
    if (!inside(target)) {
      ctx.report(l.rel, "outside_root", `${l.rel}: a link to outside the project; not read.`);
      return;
    }
    let st: fs.Stats;
    try {
      st = fs.statSync(target);
    } catch {
      return;
    }
    const targetRel = path.relative(ctx.root, target).split(path.sep).join("/") || ".";
    if (st.isDirectory()) {
      if (l.parentReal === target || l.parentReal.startsWith(target + path.sep)) {
        ctx.report(l.rel, "symlink_loop", `${l.rel}: a link back to ${targetRel} (a loop); not followed.`);
      } else if (visitedDirs.has(target)) {
        ctx.report(l.rel, "symlink_alias", `${l.rel}: a link to ${targetRel}, which is already walked; not walked twice.`);
      } else if (l.depth < maxDepth) {
        // Links inside the target are queued too, each with the real folder that holds it.
        visit(target, l.rel, l.depth + 1);
      } else {
        ctx.report(l.rel, "walk_budget", `${l.rel}: more than ${maxDepth} folders below ${shown(ctx.startRel)}; not walked.`);
      }
    } else if (st.isFile()) {
      addFile(l.rel, st);
    } else {
      ctx.report(l.rel, "not_regular", `${l.rel}: a link to ${describeSpecial(st)}; not read.`);
    }
  }

  return out.sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
}
