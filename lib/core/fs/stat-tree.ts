import fs from "node:fs";
import { isWorkbenchError } from "../errors";
import type { ProjectFs } from "../project-fs";

/** A folder or regular file of a tree, with what changes when it is written, replaced or renamed. */
export interface TreeEntry {
  /** Relative to the folder walked, forward slashes. */
  relPath: string;
  dir: boolean;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

/**
 * Every folder and regular file below `rel`, up to `maxDepth` folders down, sorted by name,
 * through the project's file layer: links inside the root are followed (each real folder
 * once), links out, loops and special files are left out and reported. Files are stat'ed
 * through their open descriptor, so what is described is what a reader would open.
 */
export function statTreeSync(pfs: ProjectFs, rel: string, maxDepth: number): TreeEntry[] {
  const out: TreeEntry[] = [];
  const start = pfs.relOf(rel);
  if (start === null) return out;
  const startReal = pfs.realDirSync(start);
  if (startReal === null) return out;
  const seen = new Set<string>([startReal]);
  const visit = (dirRel: string, prefix: string, depth: number) => {
    for (const e of pfs.listSync(dirRel)) {
      const childRel = dirRel ? `${dirRel}/${e.name}` : e.name;
      const shown = prefix ? `${prefix}/${e.name}` : e.name;
      if (e.isDir) {
        const real = pfs.realDirSync(childRel);
        if (real === null || seen.has(real)) continue;
        seen.add(real);
        out.push({ relPath: shown, dir: true, size: 0, mtimeMs: 0, ctimeMs: 0, ino: 0 });
        if (depth < maxDepth) visit(childRel, shown, depth + 1);
        continue;
      }
      let f: { fd: number } | null = null;
      try {
        f = pfs.openRegularSync(childRel, { maxBytes: Number.MAX_SAFE_INTEGER });
        const st = fs.fstatSync(f.fd);
        out.push({ relPath: shown, dir: false, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino });
      } catch (err) {
        // Refused (and reported by the file layer) or gone since the folder was listed.
        if (!isWorkbenchError(err)) throw err;
      } finally {
        if (f) fs.closeSync(f.fd);
      }
    }
  };
  visit(start, "", 0);
  return out;
}
