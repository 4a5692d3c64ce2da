import fs from "node:fs";
import path from "node:path";
import { WorkbenchError } from "../errors";

export interface Confinement {
  /** The folder every read and write is confined to (a real path). */
  root: string;
  /** The real path of the folder asked about (its missing tail appended when it does not exist yet). */
  real: string;
}

function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * The root a command on one folder of a repository (`workbench reduce <spec>`) is confined
 * to: the nearest ancestor of the folder's real path that holds `.git` (the repository the
 * folder belongs to), else the folder itself. A folder that does not exist yet is placed by
 * its nearest existing ancestor, which must then lie in a repository.
 */
export function confinementRootSync(dir: string): Confinement {
  const abs = path.resolve(/*turbopackIgnore: true*/ dir);
  let existing = abs;
  const missing: string[] = [];
  let real: string | null = null;
  for (;;) {
    try {
      real = fs.realpathSync.native(existing);
      break;
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) break;
      missing.unshift(path.basename(existing));
      existing = parent;
    }
  }
  if (real === null) throw new WorkbenchError("NOT_FOUND", `No folder at ${abs}.`);
  const full = missing.length ? path.join(/*turbopackIgnore: true*/ real, ...missing) : real;
  for (let cur = real; ;) {
    if (exists(path.join(cur, ".git"))) return { root: cur, real: full };
    const parent = path.dirname(cur);
    if (parent === cur) break;
    cur = parent;
  }
  if (missing.length) throw new WorkbenchError("NOT_FOUND", `No folder at ${abs}.`);
  let st: fs.Stats;
  try {
    st = fs.statSync(/*turbopackIgnore: true*/ real);
  } catch {
    throw new WorkbenchError("NOT_FOUND", `No folder at ${abs}.`);
  }
  if (!st.isDirectory()) throw new WorkbenchError("INVALID_INPUT", `${abs} is not a folder.`);
  return { root: real, real };
}
