/**
 * Keeps the last few run views in memory, keyed by the packet's files as they are on
 * disk: a run page, its findings windows and their filters all read one computed view,
 * and any change to a file of the packet (a new state line, a seat file) makes a new key.
 */
import fs from "node:fs";
import path from "node:path";

/** Files and folders deeper than this are not part of any packet layout. */
const MAX_DEPTH = 6;

/**
 * Name, size and mtime of every file under `dir`, as one string. Cheap next to reading the
 * packet (a stat per file), and it changes whenever a writer appends or replaces a file.
 */
export function packetFingerprint(dir: string): string {
  const parts: string[] = [];
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
      if (e.isDirectory()) {
        if (depth < MAX_DEPTH) walk(p, depth + 1);
      } else if (e.isFile()) {
        try {
          const st = fs.statSync(p);
          parts.push(`${path.relative(dir, p)}\0${st.size}\0${st.mtimeMs}`);
        } catch {
          // removed while we looked: the next fingerprint will differ anyway
        }
      }
    }
  };
  walk(dir, 0);
  return parts.join("\n");
}
