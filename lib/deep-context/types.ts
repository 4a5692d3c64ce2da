/**
 * Shared shapes of the deep-context capability (seed 004; FORMATS.md section 1).
 * The reducer produces a FindingsRegistry; convergence consumes merged units and a
 * coverage graph; ingestion stores both.
 */

export const FINDING_KINDS = ["reuse_candidate", "integration_point", "convention", "dependency", "gap"] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

/** One merged finding unit as the reference reducer writes it into findings-registry.json. */
export interface RegistryFinding {
  unit_id: string;
  path: string;
  symbol: string;
  kind: string;
  signature: string;
  reuse: string;
  evidence: string;
  notes: string;
  producedBy: string[];
  agreement: number;
  agreementEligible: boolean;
  relevance: number;
  firstIteration: number;
  /** Only on lowConfidence entries. */
  droppedBelowGate?: number;
}

export interface Contradiction {
  unit_id: string;
  path: string;
  symbol: string;
  field: "signature" | "reuse";
  values: Record<string, string>;
}

/** The minimal merged-unit view convergence needs (so it does not depend on the reducer's internals). */
export interface MergedUnit {
  unit_id: string;
  path: string;
  symbol: string;
  kind: string;
  agreement: number;
  relevance: number;
  producedBy: string[];
  firstIteration: number;
}

export type GraphNodeKind = "SLICE" | "FILE" | "SYMBOL" | "PATTERN" | "REUSE_CANDIDATE" | "DEPENDENCY" | "CONSTRAINT" | "GAP";
export type GraphRelation = "REUSES" | "IMPLEMENTS" | "EXPOSES" | "IMPORTS" | "DEPENDS_ON" | "CONSTRAINS" | "COVERED_BY" | "CONTAINS" | "REFERENCES" | "CONFIRMS" | "CONTRADICTS";

export interface GraphNode {
  id: string;
  kind: GraphNodeKind;
  label: string;
  metadata: { confirmations?: number; relevance?: number; verified?: boolean; iteration?: number; [k: string]: unknown };
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  relation: GraphRelation;
  weight: number;
}

export interface CoverageGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Where it came from: a stored graph, or derived from merged findings. */
  origin: "stored" | "derived";
}

// ---------------------------------------------------------------------------
// Reducer output (findings-registry.json), in the reference's key order.

/** A state-log line that did not parse; the content itself is never kept. */
export interface CorruptionWarning {
  /** 1-based line number in the (repaired) log, counting `\n`-separated lines. */
  line: number;
  /** Length of the trimmed line in UTF-16 code units. */
  length: number;
  /** First 12 hex digits of the SHA-256 of the trimmed line. */
  sha256: string;
  /** The JSON.parse error message. */
  error: string;
}

/** How the state log was read (see jsonl.ts). */
export type StateLogReading = "intact" | "torn_tail_repaired" | "corrupt_lines_kept";

export interface StateLogRepair {
  repaired: boolean;
  droppedBytes: number;
  /**
   * Only when bad lines were kept in a file left whole (lines followed them, or a line was
   * refused for its depth), where the reference would have cut the file: absent otherwise,
   * so registries of other logs keep the reference's bytes.
   */
  reading?: "corrupt_lines_kept";
}

/** A seat finding that was not merged (FORMATS.md §1.4). */
export interface SeatValidationWarning {
  seat: string;
  reason: string;
  symbol: string;
  path: string;
  iteration: number;
}

export interface SeatsOfIteration {
  succeeded: string[];
  failed: string[];
}

export interface RegistryMetrics {
  findings: number;
  gatedFindings: number;
  lowConfidenceFindings: number;
  agreementEligible: number;
  contradictions: number;
  agreementRate: number;
  relevanceFloor: number;
  reuseCandidates: number;
  integrationPoints: number;
  conventions: number;
  dependencies: number;
  gaps: number;
}

export interface FindingsRegistry {
  reuseCandidates: RegistryFinding[];
  integrationPoints: RegistryFinding[];
  conventions: RegistryFinding[];
  dependencies: RegistryFinding[];
  gaps: RegistryFinding[];
  lowConfidence: RegistryFinding[];
  contradictions: Contradiction[];
  metrics: RegistryMetrics;
  sessionId: string;
  lineageMode: string;
  generation: number;
  status: string;
  relevanceGate: number;
  agreementMin: number;
  executorPool: string[];
  iterationsCompleted: number;
  /** Keyed by iteration number (JSON object key order: integer keys ascending). */
  seatsByIteration: Record<string, SeatsOfIteration>;
  graphDecision: string | null;
  corruptionWarnings: CorruptionWarning[];
  seatValidationWarnings: SeatValidationWarning[];
  stateLogRepair: StateLogRepair;
}

/** What `workbench reduce` (and the reference CLI) prints on stdout. */
export interface ReduceSummary {
  registryPath: string;
  dashboardPath: string;
  iterationsCompleted: number;
  findings: number;
  agreementEligible: number;
  contradictions: number;
  corruptionCount: number;
  seatValidationWarnings: number;
  stateLogRepaired: boolean;
  stateLogDroppedBytes: number;
  /** "runtime" when the reference loaded deep-loop-runtime's helpers, "inline" for its built-in ones (ours). */
  stateSafety: "runtime" | "inline";
  /** How the state log was read: not in the reference's summary, added after its fields. */
  stateLogReading: StateLogReading;
}
