/**
 * Fixed numbers of deep-context convergence (FORMATS.md 1.6–1.10). The graph thresholds are
 * hardcoded in the reference runtime (not read from config); the host-loop defaults come from
 * deep_context_config.json and can be overridden per run.
 */
import type { GraphNodeKind, GraphRelation } from "../types";

/** Findings with metadata.relevance below this are "below the gate" (CONTEXT_RELEVANCE_GATE). */
export const RELEVANCE_GATE = 0.55;
/** Distinct executors needed before a finding counts as agreement-eligible (CONTEXT_AGREEMENT_MIN). */
export const AGREEMENT_MIN = 2;

/** Node kinds whose nodes are "findings" for agreementRate and relevanceFloor. */
export const FINDING_NODE_KINDS: ReadonlySet<GraphNodeKind> = new Set<GraphNodeKind>(["REUSE_CANDIDATE", "PATTERN", "CONSTRAINT"]);

/** Relation weights of loop_type=context (CONTEXT_WEIGHTS); weights are telemetry only. */
export const CONTEXT_WEIGHTS: Readonly<Record<GraphRelation, number>> = {
  REUSES: 1.5,
  IMPLEMENTS: 1.4,
  EXPOSES: 1.3,
  IMPORTS: 1.2,
  DEPENDS_ON: 1.2,
  CONSTRAINS: 1.1,
  COVERED_BY: 1.1,
  CONTAINS: 1.0,
  REFERENCES: 1.0,
  CONFIRMS: 1.0,
  CONTRADICTS: 0.8,
};

export const SIGNAL_NAMES = ["sliceCoverage", "reuseCatalogCoverage", "agreementRate", "relevanceFloor", "dependencyCompleteness"] as const;
export type SignalName = (typeof SIGNAL_NAMES)[number];

export type SignalRole = "blocking_guard" | "weighted";

/** evaluateContext thresholds and roles, in trace order. */
export const SIGNAL_THRESHOLDS: ReadonlyArray<{ signal: SignalName; threshold: number; role: SignalRole }> = [
  { signal: "sliceCoverage", threshold: 0.7, role: "blocking_guard" },
  { signal: "reuseCatalogCoverage", threshold: 0.6, role: "weighted" },
  { signal: "agreementRate", threshold: 0.5, role: "blocking_guard" },
  { signal: "relevanceFloor", threshold: 0.5, role: "blocking_guard" },
  { signal: "dependencyCompleteness", threshold: 0.7, role: "weighted" },
];

/** Composite-score weights (reuse-first); they sum to 1. */
export const SCORE_WEIGHTS: Readonly<Record<SignalName, number>> = {
  reuseCatalogCoverage: 0.3,
  agreementRate: 0.25,
  sliceCoverage: 0.2,
  relevanceFloor: 0.15,
  dependencyCompleteness: 0.1,
};

/** Host-loop defaults (deep_context_config.json). */
export const HOST_DEFAULTS = {
  maxIterations: 8,
  convergenceThreshold: 0.1,
  stuckThreshold: 2,
  /** K: consecutive low-progress iterations before the host counts as saturated (antiConvergence.minIterations). */
  minIterations: 2,
  /** Consecutive all-seats-failed sweeps that end the loop with stopReason "error". */
  emptySweepLimit: 3,
} as const;
