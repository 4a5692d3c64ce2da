/**
 * Atomic file writes: a temp file next to the target (`<file>.tmp.<pid>.<12 hex>`), fsync,
 * rename over the target, then a best-effort fsync of the folder so the rename survives a
 * crash. A reader sees the old complete file or the new one, never half of one; on failure
 * the temp file is removed and the target is untouched.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** Writes what `produce` hands to `write` (chunks of text, UTF-8) atomically to `filePath`. */
export function writeFileAtomic(filePath: string, produce: (write: (chunk: string) => void) => void): void {
  fs.mkdirSync(path.dirname(filePath), { recursive: true });
  const tempPath = `${filePath}.tmp.${process.pid}.${crypto.randomBytes(6).toString("hex")}`;
  let fd: number | undefined;
  try {
    fd = fs.openSync(tempPath, "w");
    const out = fd;
    let buf = Buffer.allocUnsafe(0);
    produce((chunk) => {
      // Encode into one reused buffer (3 bytes per UTF-16 unit is the UTF-8 worst case).
      if (buf.length < chunk.length * 3) buf = Buffer.allocUnsafe(chunk.length * 3);
      const len = buf.write(chunk, 0, "utf8");
      for (let off = 0; off < len; ) off += fs.writeSync(out, buf, off, len - off);
    });
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(tempPath, filePath);
    try {
      const dirFd = fs.openSync(path.dirname(filePath), "r");
      try {
        fs.fsyncSync(dirFd);
      } finally {
        fs.closeSync(dirFd);
      }
    } catch {
      // best effort: some platforms refuse to fsync a directory
    }
  } catch (error) {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        // already closed
      }
    }
    fs.rmSync(tempPath, { force: true });
    throw error;
  }
}

export function writeTextAtomic(filePath: string, content: string): void {
  writeFileAtomic(filePath, (write) => write(content));
}
