/**
 * What a context-loader walk records and the pack built from it: shared by the walk, which
 * fills it, and the pack formatter, which renders it.
 */
import type { Excerpt } from "./excerpts";
import type { RelevanceLabel } from "./judge";

export interface SectionVisit {
  /** As shown in the pack: `docs/architecture/_index.md`. */
  path: string;
  name: string;
  depth: number;
  description: string;
  matched: string[];
  label: RelevanceLabel;
  /** Whether its _index.md was read and its children scored. */
  walked: boolean;
  why: string;
}

export interface FileVisit {
  path: string;
  depth: number;
  hook: string;
  matched: string[];
  status: "read" | "noted";
  reason: string;
  excerpts: Excerpt[];
}

export interface Walk {
  prompt: string;
  trivial: { reason: string } | null;
  error: "kb_not_initialized" | null;
  promptSummary: string;
  tokens: string[];
  judge: string;
  sections: SectionVisit[];
  files: FileVisit[];
  notes: string[];
  freshKb: boolean;
  budgetExceeded: boolean;
  /** What the walk read, for the seed's input budget. */
  input: { filesRead: number; bytesRead: number; tokensRead: number };
  /** List entries left out of the pack to fit its token cap (the walk keeps them all). */
  omit?: { sections?: number; noted?: number; notes?: number };
}

export interface PackResult {
  pack: string;
  packTokens: number;
  walk: Walk;
}
