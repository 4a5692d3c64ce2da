/** A problem with one file that did not stop indexing; shown on the project page. */
export interface FileWarning {
  relPath: string;
  /** The JSON field or YAML key at fault, dotted (`items.3.status`), when there is one. */
  field?: string;
  code:
    | "corrupt_json"
    | "corrupt_yaml"
    | "invalid_field"
    | "too_large"
    | "unreadable"
    | "unknown_layout"
    | "corrupt_manifest"
    | "outside_root"
    | "shadowed"
    | "git_unavailable"
    /** The file layer's refusals (lib/core/fs): each names the file and why it was not read. */
    | "symlink_loop"
    | "symlink_alias"
    | "not_regular"
    | "hard_link"
    | "binary"
    | "invalid_utf8"
    | "too_deep"
    | "path_too_long"
    | "read_timeout"
    | "walk_budget";
  message: string;
}

export type WarningSink = (w: FileWarning) => void;
