import fs from "node:fs";
import type { ProjectFs, ReadLimit } from "../project-fs";
import { refusalError } from "./refusal";

/**
 * Reads a project file into `buf` (a larger one replaces it when the file does not fit), after
 * every check of ProjectFs.openRegularSync, up to the size the file had when opened. For
 * readers of many large files in a row (a packet's seat files): one buffer serves them all,
 * where a new one per file would be allocated, faulted in and collected each time.
 * Refusals throw as openRegularSync does.
 */
export function readIntoSync(pfs: ProjectFs, p: string, limit: ReadLimit, buf: Buffer): { buf: Buffer; length: number } {
  const f = pfs.openRegularSync(p, limit);
  try {
    let out = buf;
    if (out.length < f.size) out = Buffer.allocUnsafeSlow(f.size + (f.size >> 3));
    let n = 0;
    try {
      while (n < f.size) {
        const got = fs.readSync(f.fd, out, n, f.size - n, n);
        if (got === 0) break;
        n += got;
      }
    } catch (e) {
      const message = `${f.rel}: cannot be read (${(e as NodeJS.ErrnoException).code ?? "error"}).`;
      pfs.report(f.rel, "unreadable", message);
      throw refusalError("unreadable", message, e);
    }
    return { buf: out, length: n };
  } finally {
    fs.closeSync(f.fd);
  }
}
