/** The four local sources of the inventory, by the seed's names. */
export const SOURCE_KINDS = ["work", "brainstorm", "proposal", "refactoring"] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export const SOURCE_LABEL: Record<SourceKind, string> = {
  work: "Work",
  brainstorm: "Brainstorm",
  proposal: "Proposal",
  refactoring: "Refactoring",
};

/** A line inside untrusted content that reads as an instruction to the agent. */
export interface FlaggedDirective {
  relPath: string;
  line: number;
  text: string;
  rule: string;
}

/** An agent output file read for a work session (the summary when there is one). */
export interface AgentOutput {
  relPath: string;
  name: string;
  /** True when the distilled -summary.md variant was used. */
  isSummary: boolean;
  text: string;
  /** Inside UNTRUSTED-CONTENT / ARCHIVED-CONTENT markers (archivist, product-expert). */
  untrusted: boolean;
  flagged: FlaggedDirective[];
}

export interface SessionUpdate {
  timestamp: string | null;
  note: string;
  auto: boolean;
}

export interface WorkDetails {
  kind: "work";
  hasState: boolean;
  featureBranch: string | null;
  baseBranch: string | null;
  chunksDone: number | null;
  chunksTotal: number | null;
  nextChunk: string | null;
  keyFiles: string[];
  agentOutputs: AgentOutput[];
  updates: SessionUpdate[];
  promotedFrom: string | null;
  progress: string | null;
}

export interface BrainstormDetails {
  kind: "brainstorm";
  hasState: boolean;
  selectedApproach: string | null;
  alternativesCount: number | null;
  keyDecisions: string[];
  keyFiles: string[];
  phasesDone: number | null;
  phasesTotal: number | null;
  /** First lines of approaches / exploration / implementation picture, for prior art. */
  excerpts: { relPath: string; text: string }[];
}

export interface ProposalDetails {
  kind: "proposal";
  isFile: boolean;
  iterations: number | null;
  keyPoints: string[];
  keyFiles: string[];
}

export interface RefactoringDetails {
  kind: "refactoring";
  scope: string | null;
  progress: string | null;
  filesAffected: string[];
  filesAffectedCount: number | null;
  keyFiles: string[];
}

export type SourceDetails = WorkDetails | BrainstormDetails | ProposalDetails | RefactoringDetails;

/** What one source knows about one slug. */
export interface TopicSourceRecord {
  source: SourceKind;
  slug: string;
  title: string | null;
  status: string | null;
  /** Session type from state.json or the manifest (implementation, requirements, ...). */
  type: string | null;
  phase: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  /** Folder (or file, for single-file proposals) relative to the project root. */
  relPath: string;
  /** Listed in a valid manifest; directory-only entries are found by path lookups. */
  fromManifest: boolean;
  /** Whether the entry exists on disk (a manifest item may point at nothing). */
  onDisk: boolean;
  /** A brainstorm kept in the work folder (pre-migration layout). */
  legacy: boolean;
  /** In the inventory: manifest items, or every folder when the manifest is missing or corrupt. */
  listed: boolean;
  details: SourceDetails;
}

/** A text file kept for fuzzy search (artifact files, requirements KB, product knowledge). */
export interface SearchDocument {
  relPath: string;
  area: "artifact" | "requirements" | "product";
  source: SourceKind | null;
  slug: string | null;
  title: string | null;
  content: string;
}
