import { WorkbenchError, type ErrorCode } from "../errors";
import type { FileWarning } from "../warnings";

/** Why the file layer would not read (or list, or write) a path. */
export type FsRefusal = Extract<
  FileWarning["code"],
  "outside_root" | "symlink_loop" | "symlink_alias" | "not_regular" | "hard_link" | "too_large" | "binary" | "too_deep" | "path_too_long" | "read_timeout" | "unreadable" | "walk_budget"
>;

const ERROR_CODE: Record<FsRefusal, ErrorCode> = {
  outside_root: "UNSAFE_PATH",
  symlink_loop: "UNREADABLE",
  symlink_alias: "UNREADABLE",
  not_regular: "UNREADABLE",
  hard_link: "UNSAFE_PATH",
  too_large: "TOO_LARGE",
  binary: "UNREADABLE",
  too_deep: "UNREADABLE",
  path_too_long: "UNREADABLE",
  read_timeout: "UNREADABLE",
  unreadable: "UNREADABLE",
  walk_budget: "TOO_LARGE",
};

/** The refusal as the one error type; `details.reason` keeps the precise cause for warnings. */
export function refusalError(reason: FsRefusal, message: string, cause?: unknown): WorkbenchError {
  return new WorkbenchError(ERROR_CODE[reason], message, { reason, cause });
}

/** The refusal reason a WorkbenchError carries, when the file layer raised it. */
export function refusalOf(e: unknown): FsRefusal | null {
  if (!(e instanceof WorkbenchError)) return null;
  const d = e.details as { reason?: unknown } | undefined;
  return d && typeof d.reason === "string" && d.reason in ERROR_CODE ? (d.reason as FsRefusal) : null;
}

/** What a file that is not a regular file is, in words. */
export function describeSpecial(st: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (st.isDirectory()) return "a folder";
  if (st.isFIFO()) return "a named pipe";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  return "not a regular file";
}

/** A refusal as words that follow a file's path ("docs/x.md is binary"). */
export function refusalPhrase(reason: FsRefusal): string {
  switch (reason) {
    case "outside_root":
      return "links outside the project";
    case "symlink_loop":
      return "is a symbolic link loop";
    case "symlink_alias":
      return "is a second link to a file already read";
    case "not_regular":
      return "is not a regular file";
    case "hard_link":
      return "is a hard link";
    case "too_large":
      return "is over the size limit";
    case "binary":
      return "is binary";
    case "too_deep":
      return "is nested too deep";
    case "path_too_long":
      return "has a path longer than the system allows";
    case "read_timeout":
      return "took too long to read";
    default:
      return "cannot be read";
  }
}

/** A path as messages show it: one longer than `max` characters keeps its two ends around an ellipsis. */
export function shortPath(rel: string, max = 160): string {
  if (rel.length <= max) return rel;
  const half = Math.floor((max - 1) / 2);
  return `${rel.slice(0, half)}…${rel.slice(rel.length - half)}`;
}
