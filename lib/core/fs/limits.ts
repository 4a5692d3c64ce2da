/**
 * Bounds on what one repository file may cost. Repositories are hostile input: every read
 * names its kind, and the kind's cap is enforced before a byte is read.
 */
const MiB = 1024 * 1024;

export const READ_CAPS = {
  /** state.json, manifests, configs, proposals, checkpoints. */
  json: 2 * MiB,
  yaml: 1 * MiB,
  /** Markdown and other prose: summaries, docs, briefs. */
  markdown: 2 * MiB,
  /** Deep-loop state logs and delta logs (append-only JSONL). */
  log: 256 * MiB,
  /** One seat file of a deep-context run. */
  seat: 64 * MiB,
} as const;
export type ReadKind = keyof typeof READ_CAPS;

/** A read that has not finished by then is abandoned (a hung network or FUSE mount). */
export const READ_TIMEOUT_MS = 10_000;

/** Nesting deeper than this in JSON or YAML is refused: no real agent file comes close. */
export const MAX_NESTING = 256;

export const WALK_LIMITS = {
  /** Entries (files and folders) one walk may visit before it stops and says so. */
  maxEntries: 250_000,
  /** Folder depth below the walk's start. */
  maxDepth: 12,
} as const;

/** The first bytes looked at to tell text from binary (as git does). */
export const BINARY_SNIFF_BYTES = 8000;
