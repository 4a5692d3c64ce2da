import type { FileWarning } from "../core/warnings";

/** A problem with one `.coord/` file, located as precisely as the file allows. */
export interface CoordIssue {
  /** Project-relative path (`.coord/memory.yml`). */
  file: string;
  /** Dotted path of the field at fault (`events.1.event_type`), when there is one. */
  field?: string;
  /** 1-based line of the fault (or of the object missing the field), when known. */
  line?: number;
  message: string;
  /** Warnings describe something odd that does not make the file invalid. Default: error. */
  severity?: "error" | "warning";
  /** Why the file layer did not read the file (a link out of the project, a named pipe, binary…), when that is the problem. */
  reason?: FileWarning["code"];
}

/** Zod-style issue path as the dotted field name the UI shows. */
export function fieldName(path: readonly PropertyKey[]): string {
  return path.map(String).join(".");
}
