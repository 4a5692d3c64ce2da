/**
 * Fingerprints of a packet's files as they are on disk: a run page, its findings windows and
 * their filters all read one computed view, and any change to a file of the packet (a new
 * state line, a seat file) makes a new key.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** Files and folders deeper than this are not part of any packet layout (and end symlink loops). */
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
 * Every folder and file under `dir` (symlinks followed, as the readers follow them), with each
 * file's size, mtime, ctime and inode, as one string. Cheap next to reading the packet (a stat
 * per entry), and it changes whenever a writer appends, replaces or renames a file.
 */
function folderState(dir: string): FolderState {
  const parts: string[] = [];
  let newest = 0;
  const walk = (d: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = path.join(d, e.name);
      let st: fs.Stats;
      try {
        st = fs.statSync(p);
      } catch {
        continue; // removed while we looked, or a dangling link: the next fingerprint will differ anyway
      }
      const rel = path.relative(dir, p);
      if (st.isDirectory()) {
        parts.push(`${rel}/`);
        if (depth < MAX_DEPTH) walk(p, depth + 1);
      } else if (st.isFile()) {
        parts.push(`${rel}\0${st.size}\0${st.mtimeMs}\0${st.ctimeMs}\0${st.ino}`);
        newest = Math.max(newest, st.mtimeMs, st.ctimeMs);
      }
    }
  };
  walk(dir, 0);
  return { fingerprint: parts.join("\n"), newestChangeMs: newest };
}

export function packetFingerprint(dir: string): string {
  return folderState(dir).fingerprint;
}

/**
 * The folder's fingerprint when every file under it has been still for SETTLE_MS, else null:
 * a value kept under a settled fingerprint cannot miss a later change of the files it was
 * computed from.
 */
export function settledFingerprint(dir: string, now = Date.now()): string | null {
  const state = folderState(dir);
  return state.newestChangeMs > now - SETTLE_MS ? null : state.fingerprint;
}

/** A short hash of the packet's fingerprint: what a page was rendered from, to compare with the stream's. */
export function packetVersion(dir: string): string {
  return createHash("sha256").update(packetFingerprint(dir)).digest("hex").slice(0, 32);
}
