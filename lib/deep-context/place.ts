/**
 * A packet file or folder as the reducer knows it: the path it shows (absolute, under the
 * spec folder as the user named it, as the reference prints it) and the path it reads and
 * writes (relative to the project root, through ProjectFs, so nothing outside is touched).
 */
import path from "node:path";
import { WorkbenchError } from "../core/errors";
import { confinementRootSync } from "../core/fs/repo-root";
import { ProjectFs, toRel } from "../core/project-fs";
import type { FileWarning } from "../core/warnings";

export interface Place {
  abs: string;
  rel: string;
}

export function childOf(place: Place, ...names: string[]): Place {
  return { abs: path.join(place.abs, ...names), rel: path.posix.join(place.rel, ...names) };
}

export function parentOf(place: Place): Place {
  const rel = path.posix.dirname(place.rel);
  return { abs: path.dirname(place.abs), rel: rel === "." ? "" : rel };
}

export interface Entry {
  name: string;
  kind: "dir" | "file" | "refused";
  /** Why the file layer left the entry out (a link out of the project, a loop, a named pipe…). */
  refusal?: FileWarning;
}

/**
 * A folder's entries, sorted by name, including those the file layer refused to list
 * (reported by it, and kept here so a refused seat file still counts as a failed seat).
 */
export function listEntries(pfs: ProjectFs, rel: string): Entry[] {
  const out = new Map<string, Entry>();
  for (const e of pfs.listSync(rel)) out.set(e.name, { name: e.name, kind: e.isDir ? "dir" : "file" });
  const dir = pfs.relOf(rel);
  if (dir === null) return [];
  for (const w of pfs.skipped) {
    if (path.posix.dirname(w.relPath) !== (dir || ".") || w.relPath === dir) continue;
    const name = path.posix.basename(w.relPath);
    if (!out.has(name)) out.set(name, { name, kind: "refused", refusal: w });
  }
  return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** What is at a path: a folder, a regular file, nothing, or something the file layer refused (and reported). */
export function probe(pfs: ProjectFs, rel: string): { kind: "dir" | "file" | "missing" } | { kind: "refused"; refusal: FileWarning } {
  if (pfs.isDirSync(rel)) return { kind: "dir" };
  if (pfs.isFileSync(rel)) return { kind: "file" };
  const at = pfs.relOf(rel);
  const refusal = at === null ? undefined : pfs.skipped.find((w) => w.relPath === at);
  return refusal ? { kind: "refused", refusal } : { kind: "missing" };
}

/** The message of a refusal without the path it starts with (for lists that name the file apart). */
export function refusalText(w: FileWarning): string {
  return w.message.startsWith(`${w.relPath}: `) ? w.message.slice(w.relPath.length + 2) : w.message;
}

/**
 * The file layer for a spec folder given as a path, and the folder as shown and as read: the
 * caller's ProjectFs when it has one (the folder must lie under its root), else one rooted at
 * the repository holding the folder (see confinementRootSync).
 */
export function openSpecFolder(specFolder: string, given?: ProjectFs): { pfs: ProjectFs; spec: Place } {
  const abs = path.resolve(specFolder);
  if (given) {
    const rel = given.relOf(abs);
    if (rel === null) throw new WorkbenchError("UNSAFE_PATH", `${abs} is outside the project.`);
    return { pfs: given, spec: { abs, rel } };
  }
  const { root, real } = confinementRootSync(abs);
  return { pfs: ProjectFs.openSync(root), spec: { abs, rel: toRel(root, real) } };
}
