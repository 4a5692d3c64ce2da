import type { PacketKind } from "./types";

/** The heading that opens each kind; matched case-insensitively, rendered exactly. */
export const KIND_HEADING: Record<PacketKind, string> = {
  packet: "## Context Packet",
  brief: "## Agent Brief",
};

/**
 * Canonical keys of the sections and fields the seed names, by normalised title. Several
 * spellings map to one key so the checks find a section however its author worded the
 * heading ("Out-of-scope", "Acceptance criteria", "Current behaviour").
 */
const KNOWN: Record<string, string> = {
  task: "task",
  parent: "parent",
  scope: "scope",
  category: "category",
  summary: "summary",
  "decisions made": "decisions",
  decisions: "decisions",
  constraints: "constraints",
  "already tried": "already-tried",
  "failed attempts": "already-tried",
  "type surface": "type-surface",
  "files touched": "files-touched",
  "acceptance criteria": "acceptance",
  acceptance: "acceptance",
  "out of scope": "out-of-scope",
  progress: "progress",
  "current behavior": "current-behavior",
  "desired behavior": "desired-behavior",
  "expected behavior": "desired-behavior",
  "key interfaces": "key-interfaces",
};

/**
 * Keys that are sections even when written in a brief's first lines: the brief's own
 * blocks, and the packet's sections (a brief renders any section as a `**Title:**` label,
 * which must parse back as a section, not as a field).
 */
export const BRIEF_SECTION_KEYS: ReadonlySet<string> = new Set([
  "current-behavior",
  "desired-behavior",
  "key-interfaces",
  "acceptance",
  "out-of-scope",
  "files-touched",
  "decisions",
  "constraints",
  "already-tried",
  "type-surface",
  "progress",
]);

function normalise(title: string): string {
  return title
    .toLowerCase()
    .replace(/\([^)]*\)/g, " ")
    .replace(/[-_:]+/g, " ")
    .replace(/behaviour/g, "behavior")
    .replace(/\s+/g, " ")
    .trim();
}

/** The canonical key of a known title, or null. */
export function knownKey(title: string): string | null {
  return KNOWN[normalise(title)] ?? null;
}

/** A key for any title: the canonical one, else a slug; "untitled" for "". */
export function keyFor(title: string): string {
  const known = knownKey(title);
  if (known) return known;
  const slug = normalise(title)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return slug || "untitled";
}

/** Makes keys unique in document order ("notes", "notes-2"), so a UI can use them as ids. */
export function uniqueKeys<T extends { key: string }>(items: T[]): T[] {
  const used = new Set<string>();
  // Next suffix to try per key: thousands of same-titled sections stay linear.
  const next = new Map<string, number>();
  return items.map((it) => {
    let key = it.key;
    if (used.has(key)) {
      let n = next.get(it.key) ?? 2;
      while (used.has(`${it.key}-${n}`)) n++;
      key = `${it.key}-${n}`;
      next.set(it.key, n + 1);
    }
    used.add(key);
    return key === it.key ? it : { ...it, key };
  });
}
