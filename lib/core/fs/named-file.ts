/**
 * Files named by a path the user or the configuration gives, not found by walking a project:
 * the approvers' key file, a policy or checkpoint passed on the command line. ProjectFs is for
 * project files; these are opened with the same care, because a path can name a named pipe
 * (open would wait for a writer forever), a device (`/dev/zero` never ends), a socket or a
 * folder: only a regular file is read, at most `maxBytes`, and only up to its size at open.
 */
import fs from "node:fs";
import path from "node:path";
import { WorkbenchError } from "../errors";
import type { FsRefusal } from "./refusal";
import { describeSpecial } from "./refusal";

/**
 * O_NONBLOCK: a named pipe opens at once instead of waiting for a writer (fstat then refuses it).
 * O_NOCTTY: a terminal never becomes ours. Links are followed: the person named this path.
 */
const OPEN_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY;

/** What the error carries besides its message: the refusal, and the system's error code when there was one. */
export interface NamedFileErrorDetails {
  reason: FsRefusal | "missing";
  /** ENOENT, EACCES, EISDIR (also given for a folder, which open(2) accepts read-only), ENXIO (a socket)… */
  errno?: string;
  /** For a file that is not a regular file: what it is, in words ("a named pipe", "a device", "a folder"). */
  special?: string;
  cause?: unknown;
}

function fail(code: WorkbenchError["code"], message: string, details: NamedFileErrorDetails): WorkbenchError {
  return new WorkbenchError(code, message, details);
}

function openFailure(shown: string, e: unknown): WorkbenchError {
  const errno = (e as NodeJS.ErrnoException).code ?? "EIO";
  if (errno === "ENOENT") return fail("NOT_FOUND", `${shown}: no such file.`, { reason: "missing", errno, cause: e });
  // open(2) on a Unix socket fails with ENXIO: it is not a file to read.
  if (errno === "ENXIO") return fail("UNREADABLE", `${shown}: a socket, not a regular file; not read.`, { reason: "not_regular", errno, special: "a socket", cause: e });
  return fail("UNREADABLE", `${shown}: cannot be read (${errno}).`, { reason: "unreadable", errno, cause: e });
}

/** The bytes of the regular file at `filePath`; a WorkbenchError (details: NamedFileErrorDetails) for anything else. */
export function readRegularFileSync(filePath: string, maxBytes: number): Buffer {
  const shown = filePath;
  let fd: number;
  try {
    fd = fs.openSync(path.resolve(/*turbopackIgnore: true*/ filePath), OPEN_FLAGS);
  } catch (e) {
    throw openFailure(shown, e);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) {
      const special = describeSpecial(st);
      throw fail("UNREADABLE", `${shown}: ${special}, not a regular file; not read.`, { reason: "not_regular", special, ...(st.isDirectory() ? { errno: "EISDIR" } : {}) });
    }
    if (st.size > maxBytes) throw fail("TOO_LARGE", `${shown}: ${st.size} bytes is over the ${maxBytes}-byte limit; not read.`, { reason: "too_large" });
    const buf = Buffer.allocUnsafe(st.size);
    let n = 0;
    try {
      while (n < st.size) {
        const got = fs.readSync(fd, buf, n, st.size - n, n);
        if (got === 0) break;
        n += got;
      }
    } catch (e) {
      throw fail("UNREADABLE", `${shown}: cannot be read (${(e as NodeJS.ErrnoException).code ?? "error"}).`, { reason: "unreadable", errno: (e as NodeJS.ErrnoException).code, cause: e });
    }
    return n === st.size ? buf : buf.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

/** The details of an error from readRegularFileSync, or null for any other error. */
export function namedFileFailure(e: unknown): NamedFileErrorDetails | null {
  if (!(e instanceof WorkbenchError)) return null;
  const d = e.details as Partial<NamedFileErrorDetails> | undefined;
  return d && typeof d.reason === "string" ? (d as NamedFileErrorDetails) : null;
}

/** The path with every link resolved, or the absolute path when it cannot be resolved (missing). */
export function realPathOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}
