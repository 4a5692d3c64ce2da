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

/**
 * What `produce` hands to `write`, in a new temp file next to `filePath`, still open and not
 * yet fsynced (the caller fsyncs it, at once or on the threadpool). On failure the temp file
 * is gone and the error thrown.
 */
export function writeTempFile(filePath: string, produce: (write: ChunkSink) => void): { fd: number; tempPath: string } {
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
    return { fd, tempPath };
  } catch (error) {
    if (fd !== undefined) closeQuietly(fd);
    fs.rmSync(tempPath, { force: true });
    throw error;
  }
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // already closed
  }
}

/** The second half of an atomic write, for a temp file already fsynced and closed. */
export function preparedWrite(filePath: string, tempPath: string): PreparedWrite {
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

/** The first half of an atomic write: what `produce` hands to `write`, in a fsynced temp file next to `filePath`. */
export function prepareFileAtomic(filePath: string, produce: (write: ChunkSink) => void): PreparedWrite {
  const { fd, tempPath } = writeTempFile(filePath, produce);
  try {
    fs.fsyncSync(fd);
    fs.closeSync(fd);
  } catch (error) {
    closeQuietly(fd);
    fs.rmSync(tempPath, { force: true });
    throw error;
  }
  return preparedWrite(filePath, tempPath);
}

/**
 * prepareFileAtomic with the fsync on libuv's threadpool: the caller goes on (the reducer
 * renders and writes its dashboard while the registry's 20 MB reach the disk) and commits once
 * it resolves, with the same durability. Resolves with the
 * prepared write once the temp file is on disk; on failure the temp file is gone and the
 * promise rejects.
 */
export function prepareFileAtomicAsync(filePath: string, produce: (write: ChunkSink) => void): Promise<PreparedWrite> {
  let temp: { fd: number; tempPath: string };
  try {
    temp = writeTempFile(filePath, produce);
  } catch (error) {
    return Promise.reject(error);
  }
  const { fd, tempPath } = temp;
  return new Promise((resolve, reject) => {
    fs.fsync(fd, (error) => {
      try {
        fs.closeSync(fd);
      } catch (closeError) {
        error ??= closeError as NodeJS.ErrnoException;
      }
      if (error) {
        fs.rmSync(tempPath, { force: true });
        reject(error);
        return;
      }
      resolve(preparedWrite(filePath, tempPath));
    });
  });
}

/** Every write prepared, or none: when one fails, the others' temp files are removed and its error is thrown. */
export async function allPrepared(writes: Promise<PreparedWrite>[]): Promise<PreparedWrite[]> {
  const settled = await Promise.allSettled(writes);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (!failed) return settled.map((s) => (s as PromiseFulfilledResult<PreparedWrite>).value);
  for (const s of settled) if (s.status === "fulfilled") s.value.abort();
  throw failed.reason;
}

/** Writes what `produce` hands to `write` atomically to `filePath`. */
export function writeFileAtomic(filePath: string, produce: (write: ChunkSink) => void): void {
  prepareFileAtomic(filePath, produce).commit();
}

export function writeTextAtomic(filePath: string, content: string): void {
  writeFileAtomic(filePath, (write) => write(content));
}
