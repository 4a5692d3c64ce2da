import fs from "node:fs";
import { WorkbenchError } from "../errors";

/**
 * O_NOFOLLOW: a link that appeared at the name since it was checked is refused, not
 * followed; O_NONBLOCK: a named pipe there fails at once instead of waiting for a reader.
 */
const FLAGS = fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY;

/**
 * Cuts a file to `length` bytes in place (past its end, it is extended with zeros, as
 * truncate(2) does). `absPath` comes from ProjectFs.writablePathSync; the file opened must
 * still be a regular file with a single name, or nothing is changed.
 */
export function truncateRegularSync(absPath: string, length: number): void {
  let fd: number;
  try {
    fd = fs.openSync(absPath, FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new WorkbenchError("NOT_FOUND", `${absPath}: no such file.`, e);
    throw new WorkbenchError("UNSAFE_PATH", `${absPath}: cannot be opened for writing (${code ?? "error"}); left as it is.`, e);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new WorkbenchError("UNSAFE_PATH", `${absPath}: not a regular file; left as it is.`);
    // Another name of the file may live outside the project: changing it would change that one.
    if (st.nlink > 1) throw new WorkbenchError("UNSAFE_PATH", `${absPath}: a hard link (${st.nlink} names); left as it is.`);
    fs.ftruncateSync(fd, length);
  } finally {
    fs.closeSync(fd);
  }
}
