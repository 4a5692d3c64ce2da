/**
 * The five deep-context convergence signals computed from a coverage graph (FORMATS.md 1.7).
 *
 * Two variants exist in the reference sources and both are kept:
 * - "documented" (default): what the convergence references and their tests state —
 *   agreementRate is measured over relevance-gated findings only, and a DEPENDENCY counts as
 *   resolved when it is the TARGET of a DEPENDS_ON edge (IMPORTS excluded).
 * - "stored": what coverage-graph-signals.ts@cc68d45 actually computes — agreementRate over ALL
 *   finding nodes, and a DEPENDENCY counted when it is the SOURCE of a DEPENDS_ON or IMPORTS edge.
 * Every signal is 1.0 (vacuous pass) when its denominator is empty. An empty graph has no signals.
 */
import type { CoverageGraph, GraphNode } from "../types";
import { AGREEMENT_MIN, FINDING_NODE_KINDS, RELEVANCE_GATE, type SignalName } from "./constants";

export type SignalVariant = "documented" | "stored";
export const SIGNAL_VARIANTS: readonly SignalVariant[] = ["documented", "stored"];

export interface ContextSignals {
  sliceCoverage: number;
  reuseCatalogCoverage: number;
  agreementRate: number;
  relevanceFloor: number;
  dependencyCompleteness: number;
}

/** How one signal was reached: numerator / denominator, or vacuous when the denominator is 0. */
export interface SignalBreakdownEntry {
  value: number;
  numerator: number;
  denominator: number;
  vacuous: boolean;
}

export type SignalBreakdown = Record<SignalName, SignalBreakdownEntry>;

function ratio(numerator: number, denominator: number): SignalBreakdownEntry {
  if (denominator === 0) return { value: 1, numerator: 0, denominator: 0, vacuous: true };
  return { value: numerator / denominator, numerator, denominator, vacuous: false };
}

function finite(value: unknown): number | null {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
}

/** Count of CONFIRMS edges pointing at each node id. */
function confirmInDegree(graph: CoverageGraph): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of graph.edges) {
    if (e.relation === "CONFIRMS") counts.set(e.target, (counts.get(e.target) ?? 0) + 1);
  }
  return counts;
}

/** agreement(node) = max(metadata.confirmations (finite, else 0), count of CONFIRMS in-edges). */
export function nodeAgreement(node: GraphNode, confirmCounts: ReadonlyMap<string, number>): number {
  return Math.max(finite(node.metadata?.confirmations) ?? 0, confirmCounts.get(node.id) ?? 0);
}

/** relevance(node) = metadata.relevance when finite, else 0. */
export function nodeRelevance(node: GraphNode): number {
  return finite(node.metadata?.relevance) ?? 0;
}

/** Per-signal numerators and denominators; null for an empty graph (no nodes). */
export function computeSignalBreakdown(graph: CoverageGraph, variant: SignalVariant = "documented"): SignalBreakdown | null {
  if (graph.nodes.length === 0) return null;
  const confirmCounts = confirmInDegree(graph);
  const slices = graph.nodes.filter((n) => n.kind === "SLICE");
  const reuse = graph.nodes.filter((n) => n.kind === "REUSE_CANDIDATE");
  const deps = graph.nodes.filter((n) => n.kind === "DEPENDENCY");
  const findings = graph.nodes.filter((n) => FINDING_NODE_KINDS.has(n.kind));
  const gated = findings.filter((n) => nodeRelevance(n) >= RELEVANCE_GATE);

  const coveredSliceIds = new Set(graph.edges.filter((e) => e.relation === "COVERED_BY").map((e) => e.source));
  const resolvedDependencyIds =
    variant === "documented"
      ? new Set(graph.edges.filter((e) => e.relation === "DEPENDS_ON").map((e) => e.target))
      : new Set(graph.edges.filter((e) => e.relation === "DEPENDS_ON" || e.relation === "IMPORTS").map((e) => e.source));

  const agreementPool = variant === "documented" ? gated : findings;
  return {
    sliceCoverage: ratio(slices.filter((n) => coveredSliceIds.has(n.id)).length, slices.length),
    reuseCatalogCoverage: ratio(reuse.filter((n) => nodeAgreement(n, confirmCounts) >= 1 || n.metadata?.verified === true).length, reuse.length),
    agreementRate: ratio(agreementPool.filter((n) => nodeAgreement(n, confirmCounts) >= AGREEMENT_MIN).length, agreementPool.length),
    relevanceFloor: ratio(gated.length, findings.length),
    dependencyCompleteness: ratio(deps.filter((n) => resolvedDependencyIds.has(n.id)).length, deps.length),
  };
}

/** The five signals (unrounded ratios); null for an empty graph. */
export function computeContextSignals(graph: CoverageGraph, variant: SignalVariant = "documented"): ContextSignals | null {
  const b = computeSignalBreakdown(graph, variant);
  return b ? signalsOf(b) : null;
}

/** The signal values of a breakdown. */
export function signalsOf(b: SignalBreakdown): ContextSignals {
  return {
    sliceCoverage: b.sliceCoverage.value,
    reuseCatalogCoverage: b.reuseCatalogCoverage.value,
    agreementRate: b.agreementRate.value,
    relevanceFloor: b.relevanceFloor.value,
    dependencyCompleteness: b.dependencyCompleteness.value,
  };
}

/** SLICE nodes that are not the source of any COVERED_BY edge (the "gaps" of uncovered_slices). */
export function uncoveredSlices(graph: CoverageGraph): GraphNode[] {
  const covered = new Set(graph.edges.filter((e) => e.relation === "COVERED_BY").map((e) => e.source));
  return graph.nodes.filter((n) => n.kind === "SLICE" && !covered.has(n.id));
}

export function isSignalVariant(v: unknown): v is SignalVariant {
  return v === "documented" || v === "stored";
}
