/**
 * evaluateContext (FORMATS.md 1.9): thresholds → trace → blockers → decision and reason, and the
 * convergence payload the runtime prints (`data` plus the flattened `graph_*` fields).
 */
import type { CoverageGraph } from "../types";
import { SIGNAL_THRESHOLDS, type SignalName, type SignalRole } from "./constants";
import { computeCompositeScore, scoreDelta, scoreDeltaNote } from "./score";
import { computeSignalBreakdown, signalsOf, uncoveredSlices, type ContextSignals, type SignalBreakdown, type SignalVariant } from "./signals";

export type GraphDecision = "CONTINUE" | "STOP_ALLOWED" | "STOP_BLOCKED";
export type BlockerType = "uncovered_slices" | "low_relevance_focus" | "low_cross_executor_agreement" | "context_contradictions";

export interface TraceEntry {
  signal: SignalName;
  value: number;
  threshold: number;
  passed: boolean;
  role: SignalRole;
}

export interface Blocker {
  type: BlockerType;
  description: string;
  count: number;
  severity: "blocking" | "warning";
}

export const EMPTY_GRAPH_REASON = "Graph is empty; insufficient data for convergence assessment";
export const STOP_ALLOWED_REASON = "All convergence signals pass thresholds; STOP is allowed pending newInfoRatio agreement.";

const pct = (v: number) => `${(v * 100).toFixed(0)}%`;

/** Trace and blockers for a set of signals. `uncoveredSliceCount` feeds the uncovered_slices count. */
export function evaluateContext(signals: ContextSignals, uncoveredSliceCount: number, contradictionCount: number): { blockers: Blocker[]; trace: TraceEntry[] } {
  const trace: TraceEntry[] = SIGNAL_THRESHOLDS.map(({ signal, threshold, role }) => ({
    signal,
    value: signals[signal],
    threshold,
    passed: signals[signal] >= threshold,
    role,
  }));
  const blockers: Blocker[] = [];
  if (signals.sliceCoverage < 0.7) {
    blockers.push({
      type: "uncovered_slices",
      description: `Slice coverage ${pct(signals.sliceCoverage)} is under the 70% guard; ${uncoveredSliceCount} slice(s) have no COVERED_BY edge. STOP stays blocked until the scope is swept.`,
      count: uncoveredSliceCount,
      severity: "blocking",
    });
  }
  if (signals.relevanceFloor < 0.5) {
    blockers.push({
      type: "low_relevance_focus",
      description: `Relevance floor ${pct(signals.relevanceFloor)} is under the 50% guard: most findings fall below the relevance gate. STOP stays blocked until the focus narrows.`,
      count: 1,
      severity: "blocking",
    });
  }
  if (signals.agreementRate < 0.5) {
    blockers.push({
      type: "low_cross_executor_agreement",
      description: `Cross-executor agreement ${pct(signals.agreementRate)} is under the 50% guard: too few findings are confirmed by two or more executors. STOP stays blocked.`,
      count: 1,
      severity: "blocking",
    });
  }
  if (contradictionCount > 0) {
    blockers.push({
      type: "context_contradictions",
      description: `${contradictionCount} contradiction(s) between executors; reconcile them before stopping (warning, does not block).`,
      count: contradictionCount,
      severity: "warning",
    });
  }
  return { blockers, trace };
}

/** STOP_BLOCKED on any blocking blocker, else STOP_ALLOWED when every trace entry passed, else CONTINUE. */
export function decisionFrom(blockers: readonly Blocker[], trace: readonly TraceEntry[]): GraphDecision {
  if (blockers.some((b) => b.severity === "blocking")) return "STOP_BLOCKED";
  return trace.every((t) => t.passed) ? "STOP_ALLOWED" : "CONTINUE";
}

/** The runtime's reason string for a decision. */
export function decisionReason(decision: GraphDecision, blockers: readonly Blocker[], trace: readonly TraceEntry[]): string {
  if (decision === "STOP_ALLOWED") return STOP_ALLOWED_REASON;
  if (decision === "STOP_BLOCKED") {
    const blocking = blockers.filter((b) => b.severity === "blocking");
    return `STOP is blocked by ${blocking.length} blocker(s): ${blocking.map((b) => b.type).join(", ")}`;
  }
  const failed = trace.filter((t) => !t.passed).map((t) => t.signal);
  return `Convergence signals not yet met: ${failed.join(", ")}. Continue iterating.`;
}

/** A prior convergence snapshot (oldest first): the iteration and its metrics (signals + score). */
export interface ConvergenceSnapshot {
  iteration: number;
  metrics: Record<string, number>;
}

export interface DecideOptions {
  variant?: SignalVariant;
  /** Contradictions to report; defaults to the number of CONTRADICTS edges in the graph. */
  contradictions?: number;
  /** Earlier snapshots, oldest first: the last one gives scoreDelta, the last two give momentum. */
  snapshots?: readonly ConvergenceSnapshot[];
  namespace?: { specFolder: string; sessionId: string };
  notes?: string[];
}

export interface ConvergenceData {
  decision: GraphDecision;
  reason: string;
  score: number;
  scoreDelta: number | null;
  scoreDeltaNote: string;
  signals: (ContextSignals & { score: number }) | null;
  blockers: Blocker[];
  trace: TraceEntry[];
  momentum: Record<string, number> | null;
  namespace: { specFolder: string; loopType: "context"; sessionId: string };
  scopeMode: "session";
  notes: string[];
  snapshotPersistence: "not_requested";
  nodeCount: number;
  edgeCount: number;
  lastIteration: number | null;
  /** Not in the runtime payload: which signal variant and graph origin produced this, and the per-signal counts. */
  variant: SignalVariant;
  graphOrigin: CoverageGraph["origin"];
  breakdown: SignalBreakdown | null;
}

export interface ConvergencePayload {
  status: "ok";
  data: ConvergenceData;
  graph_decision: GraphDecision;
  graph_decision_json: string;
  graph_signals_json: (ContextSignals & { score: number }) | Record<string, never>;
  graph_blockers_json: Blocker[];
  graph_blockers_csv: string;
  graph_stop_blocked: boolean;
  graph_trace_json: TraceEntry[];
  graph_convergence_score: number;
  graph_score_delta: number | null;
  graph_score_delta_json: string;
}

function momentumOf(snapshots: readonly ConvergenceSnapshot[]): Record<string, number> | null {
  if (snapshots.length < 2) return null;
  const latest = snapshots[snapshots.length - 1]!.metrics;
  const previous = snapshots[snapshots.length - 2]!.metrics;
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(latest)) {
    const p = previous[k];
    if (typeof v === "number" && typeof p === "number") out[k] = v - p;
  }
  return out;
}

/** "type:count" for blocking blockers, comma-joined. */
export function blockersCsv(blockers: readonly Blocker[]): string {
  return blockers
    .filter((b) => b.severity === "blocking")
    .map((b) => `${b.type}:${b.count}`)
    .join(",");
}

/** The full convergence evaluation of a coverage graph, shaped like convergence.cjs output. */
export function decideContext(graph: CoverageGraph, opts: DecideOptions = {}): ConvergencePayload {
  const variant = opts.variant ?? "documented";
  const snapshots = opts.snapshots ?? [];
  const prior = snapshots.length > 0 ? snapshots[snapshots.length - 1]! : null;
  const namespace = { specFolder: opts.namespace?.specFolder ?? "", loopType: "context" as const, sessionId: opts.namespace?.sessionId ?? "" };
  const base = {
    namespace,
    scopeMode: "session" as const,
    notes: ["Convergence signals were computed from the session-scoped subgraph only.", ...(opts.notes ?? [])],
    snapshotPersistence: "not_requested" as const,
    nodeCount: graph.nodes.length,
    edgeCount: graph.edges.length,
    lastIteration: prior ? prior.iteration : null,
    variant,
    graphOrigin: graph.origin,
  };

  // One pass over the graph for the signals and their breakdown (a derived graph of a large
  // run has hundreds of thousands of edges).
  const breakdown = computeSignalBreakdown(graph, variant);
  const signals = breakdown ? signalsOf(breakdown) : null;
  if (!signals) {
    const data: ConvergenceData = {
      decision: "CONTINUE",
      reason: EMPTY_GRAPH_REASON,
      score: 0,
      scoreDelta: null,
      scoreDeltaNote: "no prior snapshot",
      signals: null,
      blockers: [],
      trace: [],
      momentum: null,
      ...base,
      breakdown: null,
    };
    return {
      status: "ok",
      data,
      graph_decision: "CONTINUE",
      graph_decision_json: JSON.stringify("CONTINUE"),
      graph_signals_json: {},
      graph_blockers_json: [],
      graph_blockers_csv: "",
      graph_stop_blocked: false,
      graph_trace_json: [],
      graph_convergence_score: 0,
      graph_score_delta: null,
      graph_score_delta_json: "null",
    };
  }

  const score = computeCompositeScore(signals);
  const delta = scoreDelta(score, prior ? prior.metrics : null);
  const contradictions = opts.contradictions ?? graph.edges.filter((e) => e.relation === "CONTRADICTS").length;
  const { blockers, trace } = evaluateContext(signals, uncoveredSlices(graph).length, contradictions);
  const decision = decisionFrom(blockers, trace);
  const signalsWithScore = { ...signals, score };
  const data: ConvergenceData = {
    decision,
    reason: decisionReason(decision, blockers, trace),
    score,
    scoreDelta: delta,
    scoreDeltaNote: scoreDeltaNote(prior ? prior.metrics : null, delta),
    signals: signalsWithScore,
    blockers,
    trace,
    momentum: momentumOf(snapshots),
    ...base,
    breakdown,
  };
  return {
    status: "ok",
    data,
    graph_decision: decision,
    graph_decision_json: JSON.stringify(decision),
    graph_signals_json: signalsWithScore,
    graph_blockers_json: blockers,
    graph_blockers_csv: blockersCsv(blockers),
    graph_stop_blocked: decision === "STOP_BLOCKED",
    graph_trace_json: trace,
    graph_convergence_score: score,
    graph_score_delta: delta,
    graph_score_delta_json: JSON.stringify(delta),
  };
}
