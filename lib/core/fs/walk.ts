import fs from "node:fs";
import path from "node:path";
import type { FileWarning } from "../warnings";
import { WALK_LIMITS } from "./limits";
import { describeSpecial } from "./refusal";

export interface WalkOptions {
  /** Folder depth below the start (default WALK_LIMITS.maxDepth). */
  maxDepth?: number;
  /** Entries visited before the walk stops and says so (default WALK_LIMITS.maxEntries). */
  maxEntries?: number;
}

export interface WalkContext {
  /** The project root's real path. */
  root: string;
  startRel: string;
  startReal: string;
  report(relPath: string, code: FileWarning["code"], message: string): void;
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

const SKIPPED_NAMES = new Set([".git", "node_modules"]);

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

  const addFile = (rel: string, st: fs.Stats): void => {
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
  };

  const visit = (real: string, rel: string, depth: number): void => {
    if (stopped || visitedDirs.has(real)) return;
    visitedDirs.add(real);
    let dirents: fs.Dirent[];
    try {
      dirents = fs.readdirSync(real, { withFileTypes: true });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENAMETOOLONG") ctx.report(rel, "path_too_long", `${shown(rel)}: the path is longer than the system allows; not walked.`);
      else if (code !== "ENOENT") ctx.report(rel, "unreadable", `${shown(rel)}: the folder cannot be listed (${code ?? "error"}).`);
      return;
    }
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of dirents) {
      if (SKIPPED_NAMES.has(e.name)) continue;
      if (++entries > maxEntries) {
        stopped = true;
        ctx.report(rel, "walk_budget", `${shown(rel)}: the walk stopped after ${maxEntries} entries; the rest of ${shown(ctx.startRel)} is not indexed.`);
        return;
      }
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      // A plain join: `real` is a resolved path and a listed name holds no separator, so
      // path.join's normalising (a measurable share of a 23,000-file walk) has nothing to do.
      const childAbs = real.endsWith(path.sep) ? real + e.name : real + path.sep + e.name;
      if (e.isDirectory()) {
        if (depth < maxDepth) visit(childAbs, childRel, depth + 1);
        else ctx.report(childRel, "walk_budget", `${childRel}: more than ${maxDepth} folders below ${shown(ctx.startRel)}; not walked.`);
      } else if (e.isFile()) {
        let st: fs.Stats | undefined;
        try {
          st = fs.statSync(childAbs, { throwIfNoEntry: false });
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === "ENAMETOOLONG") ctx.report(childRel, "path_too_long", `${childRel}: the path is longer than the system allows; not read.`);
          continue;
        }
        if (st) addFile(childRel, st); // else: it vanished between readdir and stat
      } else if (e.isSymbolicLink()) {
        links.push({ rel: childRel, abs: childAbs, parentReal: real, depth });
      } else {
        ctx.report(childRel, "not_regular", `${childRel}: ${describeSpecial(e)}; not read.`);
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
