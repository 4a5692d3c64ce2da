/**
 * Create-only writes: a file appears under a name only when nothing had that name, so two
 * writers never replace each other (locks, numbered packets). O_EXCL and link(2) both refuse
 * a name that exists, a symbolic link included, so nothing at the name is ever followed.
 *
 * Paths come from ProjectFs (writablePathSync / ensureDirSync): a real folder inside the
 * project. These functions only create, link, move and remove at the paths they are given.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { syncDir } from "./atomic-write";

/** link(2) errors that mean "no hard links on this file system", not "name taken". */
const NO_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "EXDEV", "ENOSYS"]);

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let off = 0; off < bytes.length;) off += fs.writeSync(fd, bytes, off, bytes.length - off);
}

/**
 * Creates `absPath` holding `data` (written and fsynced before this returns); false when the
 * name is taken. Other failures are thrown as the system reports them.
 */
export function createExclusiveSync(absPath: string, data: string | Uint8Array): boolean {
  let fd: number;
  try {
    fd = fs.openSync(absPath, "wx");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  }
  try {
    writeAll(fd, typeof data === "string" ? Buffer.from(data, "utf8") : data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

/**
 * Creates `absPath` holding `data`, never replacing anything, and never showing part of `data`:
 * the data goes to `tempPath` beside it (created exclusively, written, fsynced), the name is
 * claimed with an exclusive create, and the temp file is renamed over that empty claim. A kill
 * -9 between the claim and the rename leaves the name empty and the temp file whole beside it, so
 * a reader of the empty name learns from the temp file who claimed it (a lock's owner). False,
 * with the temp file removed, when the name is taken.
 */
export function createByClaimSync(absPath: string, tempPath: string, data: string | Uint8Array): boolean {
  if (!createExclusiveSync(tempPath, data)) throw new Error(`temp file name ${tempPath} is taken`);
  let claimed = false;
  try {
    try {
      fs.closeSync(fs.openSync(absPath, "wx"));
      claimed = true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw e;
    }
    fs.renameSync(tempPath, absPath);
    return true;
  } finally {
    if (!claimed) fs.rmSync(tempPath, { force: true });
  }
}

/** A second name for the file at `existing`: "exists" when `newPath` is taken, "unsupported" without hard links. */
export function linkNoReplaceSync(existing: string, newPath: string): "linked" | "exists" | "unsupported" {
  try {
    fs.linkSync(existing, newPath);
    return "linked";
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? "";
    if (code === "EEXIST") return "exists";
    if (NO_LINKS.has(code)) return "unsupported";
    throw e;
  }
}

/**
 * A new file in the real folder `dirAbs` under the first free name of `names`, appearing whole
 * or not at all: the data goes to a fsynced temp file that is then hard-linked to each name in
 * turn until one is free (a link, unlike a rename, never replaces). Without hard links it falls
 * back to an exclusive create, still never replacing (a crash there can leave a short file).
 * Returns the name taken, or null when every name was taken. The temp file never stays.
 */
export function publishNewFileSync(dirAbs: string, data: string | Uint8Array, names: Iterable<string>): string | null {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  const temp = path.join(dirAbs, `.publish.tmp.${process.pid}.${crypto.randomBytes(6).toString("hex")}`);
  if (!createExclusiveSync(temp, bytes)) throw new Error(`temp file name ${temp} is taken`);
  try {
    for (const name of names) {
      const target = path.join(dirAbs, name);
      const linked = linkNoReplaceSync(temp, target);
      if (linked === "exists") continue;
      if (linked === "unsupported" && !createExclusiveSync(target, bytes)) continue;
      syncDir(dirAbs);
      return name;
    }
    return null;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/** Moves a file to a new name in the same folder; false when it is already gone. */
export function moveFileSync(from: string, to: string): boolean {
  try {
    fs.renameSync(from, to);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw e;
  }
}

/** Removes a file (never a folder); nothing when it is already gone. */
export function removeFileSync(absPath: string): void {
  try {
    fs.unlinkSync(absPath);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
}
