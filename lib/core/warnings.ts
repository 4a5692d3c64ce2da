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
    | "git_unavailable";
  message: string;
}

export type WarningSink = (w: FileWarning) => void;
