/**
 * Fingerprints of a packet's files as they are on disk: a run page, its findings windows and
 * their filters all read one computed view, and any change to a file of the packet (a new
 * state line, a seat file) makes a new key.
 */
import path from "node:path";
import { statTreeSync } from "../core/fs/stat-tree";
import type { ProjectFs } from "../core/project-fs";
import { sha256HexOfText } from "../core/sha256-js";

/** Files and folders deeper than this are not part of any packet layout. */
const MAX_DEPTH = 6;

/**
 * How long after a file changed its size and times cannot yet be trusted to reveal its next
 * change: a rewrite of the same length within one timestamp tick (a few ms on ext4, up to 2 s
 * on some mounts) leaves them as they were. The rule git applies to its index, for the same reason.
 */
export const SETTLE_MS = 1_000;

interface FolderState {
  fingerprint: string;
  /** The latest mtime or ctime of anything under the folder (ms since the epoch). */
  newestChangeMs: number;
}

/**
 * Every folder and file under `rel` as the readers see them (through the file layer: links
 * inside the project followed, links out and special files left out), with each file's size,
 * mtime, ctime and inode, as one string. Cheap next to reading the packet (an open and fstat
 * per file), and it changes whenever a writer appends, replaces or renames a file.
 */
function folderState(pfs: ProjectFs, rel: string): FolderState {
  const parts: string[] = [];
  let newest = 0;
  for (const e of statTreeSync(pfs, rel, MAX_DEPTH)) {
    if (e.dir) {
      parts.push(`${e.relPath}/`);
    } else {
      parts.push(`${e.relPath}\0${e.size}\0${e.mtimeMs}\0${e.ctimeMs}\0${e.ino}`);
      newest = Math.max(newest, e.mtimeMs, e.ctimeMs);
    }
  }
  return { fingerprint: parts.join("\n"), newestChangeMs: newest };
}

export function packetFingerprint(pfs: ProjectFs, rel: string): string {
  return folderState(pfs, rel).fingerprint;
}

/**
 * The folder's fingerprint when every file under it has been still for SETTLE_MS, else null:
 * a value kept under a settled fingerprint cannot miss a later change of the files it was
 * computed from.
 */
export function settledFingerprint(pfs: ProjectFs, rel: string, now = Date.now()): string | null {
  const state = folderState(pfs, rel);
  return state.newestChangeMs > now - SETTLE_MS ? null : state.fingerprint;
}

/**
 * The fingerprint of a run's spec folder (what its view is computed from) and the run
 * folder's version, from one walk of the spec folder: the run page needs both on every
 * request, and the run folder is inside the spec folder.
 */
export function packetStates(pfs: ProjectFs, runRel: string): { specFingerprint: string; version: string } {
  const spec = folderState(pfs, path.posix.dirname(runRel));
  const prefix = `${path.posix.basename(runRel)}/`;
  // The run folder's lines are the spec folder's lines under it, relative to it (in the same order).
  const own = spec.fingerprint
    .split("\n")
    .filter((line) => line.startsWith(prefix) && line !== prefix)
    .map((line) => line.slice(prefix.length));
  return { specFingerprint: spec.fingerprint, version: sha256HexOfText(own.join("\n")).slice(0, 32) };
}

/**
 * A short hash of the run folder's fingerprint: what a page was rendered from, to compare with
 * the stream's. Derived the way packetStates derives it, so the page and the stream agree.
 */
export function packetVersion(pfs: ProjectFs, runRel: string): string {
  return packetStates(pfs, runRel).version;
}
