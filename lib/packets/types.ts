/**
 * The model of a context-pack handoff (seed 001, FORMATS.md §3): a Context Packet (v2) for
 * immediate sub-agent dispatch, or an Agent Brief for async receivers that may run days later.
 */

export type PacketKind = "packet" | "brief";

/** A `**Label**: value` (packet) or `**Label:** value` (brief) header line, in document order. */
export interface PacketField {
  /** Stable slug of the label ("task", "parent", "scope", "category", "summary"), unique in the document. */
  key: string;
  /** The label as written, without the bold markers and colon. */
  label: string;
  /** The value, trimmed; continuation lines of a packet field are kept, joined by "\n". */
  value: string;
}

/**
 * A `### Title` section of a packet, or a `**Title:**` block of a brief (the blocks after
 * its first label lines). Text before the first section that is not a field becomes a
 * section with an empty title, so nothing a user wrote is ever dropped.
 */
export interface PacketSection {
  /** Stable key: known sections get a canonical one ("out-of-scope", "type-surface"…), others a slug; unique in the document. */
  key: string;
  /** The heading or label as written ("Type Surface (durable)"); "" for untitled text. */
  title: string;
  /** Everything up to the next section, without leading and trailing blank lines. */
  body: string;
}

export interface PacketDocument {
  kind: PacketKind;
  /** Text before the `## Context Packet` / `## Agent Brief` heading. */
  preamble: string;
  fields: PacketField[];
  sections: PacketSection[];
  /** Text from the first heading after the packet that is not one of its sections (`## Other`, `# Title`). */
  trailing: string;
}

export type FindingTier = "BLOCK" | "WARN";

/** The line of seed 001 (context-pack) a finding's rule and tier come from. */
export interface SeedRef {
  /** The seed document: 001 is context-pack. */
  seed: "001";
  /** 1-based line in the seed. */
  line: number;
  /** The part of the seed that line belongs to ("HARD-GATE", "Constraint 10", "Self-Validation"…). */
  part: string;
  /** The seed's own words at that line. */
  quote: string;
}

export interface PacketFinding {
  /** Stable id, e.g. "file-line-ref". */
  rule: string;
  tier: FindingTier;
  /** For users: names the rule and what to do. */
  message: string;
  /** The offending text exactly as in the markdown: `markdown.slice(offset, offset + length)`. */
  text: string;
  /** UTF-16 offset into the markdown. */
  offset: number;
  length: number;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 units. */
  column: number;
  /** Title of the section the text is in (as `PacketSection.title`); null in the header, preamble or trailing text. */
  section: string | null;
  /** Replacement for `text` when a mechanical rewrite exists ("" means delete it); absent otherwise. */
  suggestion?: string;
  /** Where the seed states the rule, and so why it blocks or only warns. */
  seedRef: SeedRef;
}

export type TaskTokensSource = "caller" | "packet";

/** The seed's result object (`{packet, token_estimate, completeness, warnings}`) plus the findings. */
export interface ValidationResult {
  kind: PacketKind;
  packet: string;
  token_estimate: number;
  /** The task size the Type Surface gate ("task >= 300 tokens") used. */
  task_tokens: number;
  /** "caller": the delegated task's size as the caller gave it; "packet": no size given, so the packet's own estimate. */
  task_tokens_source: TaskTokensSource;
  tokenizer: string;
  budget: number;
  completeness: "full" | "partial" | "minimal";
  warnings: string[];
  findings: PacketFinding[];
  emittable: boolean;
}

/** A stored packet and its revisions as the UI sees them (stored by lib/db, the layer below). */
export type { PacketDto, RevisionDto, RevisionSummaryDto } from "../db/repositories/packets";
