/**
 * The reducer's outputs as temp files whose fsync runs on libuv's threadpool, so the CLI
 * renders and writes the dashboard while the registry's 20 MB reach the disk (the fsyncs were
 * the largest part of the reduce's I/O on the main thread). Each temp file is fsynced before
 * commitTogether renames it, and the folder after, exactly as prepareFileAtomic's are: the
 * same durability, only not waited for one after the other.
 */
import fs from "node:fs";
import path from "node:path";
import { type ChunkSink, type PreparedWrite, syncDir } from "../../core/fs/atomic-write";

let seq = 0;

function removeQuietly(file: string): void {
  fs.rmSync(file, { force: true });
}

/**
 * Writes what `produce` hands over into a new temp file beside `filePath` (named as
 * prepareFileAtomic names them, so recoverCommits knows it), then fsyncs it in the background.
 * Resolves with the prepared write once the temp file is on disk; on failure the temp file
 * is gone and the promise rejects.
 */
export function prepareFileAtomicAsync(filePath: string, produce: (write: ChunkSink) => void): Promise<PreparedWrite> {
  const tempPath = `${filePath}.tmp.${process.pid}.${Date.now().toString(36)}.a${(++seq).toString(36)}`;
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
      if (buf.length < chunk.length * 3) buf = Buffer.allocUnsafe(chunk.length * 3);
      writeAll(buf, buf.write(chunk, 0, "utf8"));
    });
  } catch (error) {
    if (fd !== undefined) fs.closeSync(fd);
    removeQuietly(tempPath);
    return Promise.reject(error);
  }
  const written = fd;
  return new Promise((resolve, reject) => {
    fs.fsync(written, (error) => {
      try {
        fs.closeSync(written);
      } catch (closeError) {
        error ??= closeError as NodeJS.ErrnoException;
      }
      if (error) {
        removeQuietly(tempPath);
        reject(error);
        return;
      }
      let done = false;
      resolve({
        filePath,
        tempPath,
        commit(options = {}) {
          if (done) return;
          done = true;
          try {
            fs.renameSync(tempPath, filePath);
          } catch (e) {
            removeQuietly(tempPath);
            throw e;
          }
          if (options.syncDir !== false) syncDir(path.dirname(filePath));
        },
        abort() {
          if (done) return;
          done = true;
          removeQuietly(tempPath);
        },
      });
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
