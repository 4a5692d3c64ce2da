/**
 * Atomic file writes: a temp file next to the target (`<file>.tmp.<pid>.<12 hex>`), fsync,
 * rename over the target, then a best-effort fsync of the folder so the rename survives a
 * crash. A reader sees the old complete file or the new one, never half of one; on failure
 * the temp file is removed and the target is untouched.
 *
 * Paths come from ProjectFs.writablePathSync (a real folder inside the project, a target that
 * is not a link); the temp file is created exclusively, so nothing at its name is followed.
 */
import fs from "node:fs";
import path from "node:path";

/** A chunk of the file: text (written as UTF-8) or the first `length` bytes of a buffer (all by default). */
export type ChunkSink = (chunk: string | Uint8Array, length?: number) => void;

/** A temp file written and fsynced, not yet renamed over its target. */
export interface PreparedWrite {
  /** The file this write replaces. */
  readonly filePath: string;
  /** The temp file beside it, renamed over it by commit. */
  readonly tempPath: string;
  /** Renames the temp file over the target, then (unless told not to) fsyncs the folder. */
  commit(options?: { syncDir?: boolean }): void;
  /** Removes the temp file; the target stays as it was. */
  abort(): void;
}

/** Best-effort fsync of a folder, so renames in it survive a crash. */
export function syncDir(dir: string): void {
  try {
    const dirFd = fs.openSync(dir, "r");
    try {
      fs.fsyncSync(dirFd);
    } finally {
      fs.closeSync(dirFd);
    }
  } catch {
    // best effort: some platforms refuse to fsync a directory
  }
}

let tempSeq = 0;
/**
 * A temp name's tail: unique within the process by the counter and across processes by the
 * pid. Creating it with "wx" refuses any name that exists (a planted file or link), so it
 * need not be unguessable, and the start of a read-only command need not load node:crypto.
 */
const tempSuffix = () => `${process.pid}.${Date.now().toString(36)}.${(++tempSeq).toString(36)}`;

/** The first half of an atomic write: what `produce` hands to `write`, in a fsynced temp file next to `filePath`. */
export function prepareFileAtomic(filePath: string, produce: (write: ChunkSink) => void): PreparedWrite {
  const tempPath = `${filePath}.tmp.${tempSuffix()}`;
  let fd: number | undefined;
  try {
    fd = fs.openSync(tempPath, "wx");
    const out = fd;
    let buf = Buffer.allocUnsafe(0);
    const writeAll = (bytes: Uint8Array, len: number) => {
      for (let off = 0; off < len;) off += fs.writeSync(out, bytes, off, len - off);
    };
    produce((chunk, length) => {
      if (typeof chunk !== "string") {
        writeAll(chunk, length ?? chunk.length);
        return;
      }
      // Encode into one reused buffer (3 bytes per UTF-16 unit is the UTF-8 worst case).
      if (buf.length < chunk.length * 3) buf = Buffer.allocUnsafe(chunk.length * 3);
      writeAll(buf, buf.write(chunk, 0, "utf8"));
    });
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
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
  let done = false;
  return {
    filePath,
    tempPath,
    commit(options = {}) {
      if (done) return;
      done = true;
      try {
        fs.renameSync(tempPath, filePath);
      } catch (error) {
        fs.rmSync(tempPath, { force: true });
        throw error;
      }
      if (options.syncDir !== false) syncDir(path.dirname(filePath));
    },
    abort() {
      if (done) return;
      done = true;
      fs.rmSync(tempPath, { force: true });
    },
  };
}

/** Writes what `produce` hands to `write` atomically to `filePath`. */
export function writeFileAtomic(filePath: string, produce: (write: ChunkSink) => void): void {
  prepareFileAtomic(filePath, produce).commit();
}

export function writeTextAtomic(filePath: string, content: string): void {
  writeFileAtomic(filePath, (write) => write(content));
}
