/**
 * Cross-run comparison of deep-context findings (issue #8): what changed between a baseline
 * (another run of the project, or this run as it stood after iteration N) and the current
 * run. Units are matched by unit_id, the reducer's identity, so a finding that moved bucket
 * or gained an executor is one changed unit, not one dropped and one added.
 *
 * Pure: both sides come in as plain data (see compareSideOf); loading them is the
 * service's job (../compare-service.ts).
 */
import { SIGNAL_THRESHOLDS, type SignalName, type SignalRole, type ConvergenceData, type GraphDecision } from "../convergence";
import type { FindingRow, RunView } from "../views";
import type { Contradiction } from "../types";
import { COMPARE_SECTIONS, type CompareRequest, type CompareSection } from "./query";

export { COMPARE_SECTIONS, MAX_COMPARE_LIMIT, compareQuerySchema, formatBaselineRef, parseBaselineRef, type BaselineRef, type CompareRequest, type CompareSection } from "./query";

/** New and resolved contradictions sent per side; the counts say how many there are. */
export const CONTRADICTIONS_SHOWN = 50;

/** One side of a comparison: the merged units, their contradictions and the convergence verdict. */
export interface CompareSide {
  findings: readonly FindingRow[];
  contradictions: readonly Contradiction[];
  convergence: Pick<ConvergenceData, "decision" | "score" | "signals" | "blockers">;
}

export function compareSideOf(view: Pick<RunView, "findings" | "registry" | "payload">): CompareSide {
  return { findings: view.findings, contradictions: view.registry?.contradictions ?? [], convergence: view.payload.data };
}

export interface UnitState {
  bucket: string;
  agreement: number;
  relevance: number;
  producedBy: string[];
  firstIteration: number;
  contradicted: boolean;
}

export type UnitChange = "agreement" | "relevance" | "bucket" | "contradicted";

export interface UnitDiff {
  unit_id: string;
  path: string;
  symbol: string;
  kind: string;
  status: CompareSection;
  baseline: UnitState | null;
  current: UnitState | null;
  /** For a unit on both sides: what differs (empty when unchanged). */
  changes: UnitChange[];
  executorsAdded: string[];
  executorsRemoved: string[];
}

export interface CompareCounts {
  baseline: number;
  current: number;
  added: number;
  dropped: number;
  changed: number;
  unchanged: number;
  agreementChanged: number;
  agreementUp: number;
  agreementDown: number;
  relevanceChanged: number;
  bucketChanged: number;
  contradictionsNew: number;
  contradictionsResolved: number;
}

export interface SignalRow {
  /** A signal name, or "score" for the composite (telemetry, never a gate). */
  signal: SignalName | "score";
  threshold: number | null;
  role: SignalRole | "telemetry";
  baseline: number | null;
  current: number | null;
  /** current − baseline, to three decimals; null when either side has no value. */
  delta: number | null;
  changed: boolean;
}

export interface SignalsComparison {
  rows: SignalRow[];
  decision: { baseline: GraphDecision; current: GraphDecision; changed: boolean };
  /** Blocking blocker types on each side. */
  blockers: { baseline: string[]; current: string[] };
}

export interface RunComparison {
  counts: CompareCounts;
  units: Record<CompareSection, UnitDiff[]>;
  contradictions: { new: Contradiction[]; resolved: Contradiction[] };
  signals: SignalsComparison;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

function stateOf(f: FindingRow): UnitState {
  return { bucket: f.bucket, agreement: f.agreement, relevance: f.relevance, producedBy: f.producedBy, firstIteration: f.firstIteration, contradicted: f.contradicted };
}

function diffOf(f: FindingRow, status: CompareSection, baseline: FindingRow | null, current: FindingRow | null): UnitDiff {
  const changes: UnitChange[] = [];
  let executorsAdded: string[] = [];
  let executorsRemoved: string[] = [];
  if (baseline && current) {
    if (baseline.agreement !== current.agreement) changes.push("agreement");
    if (baseline.relevance !== current.relevance) changes.push("relevance");
    if (baseline.bucket !== current.bucket) changes.push("bucket");
    if (baseline.contradicted !== current.contradicted) changes.push("contradicted");
    const before = new Set(baseline.producedBy);
    const after = new Set(current.producedBy);
    executorsAdded = current.producedBy.filter((p) => !before.has(p));
    executorsRemoved = baseline.producedBy.filter((p) => !after.has(p));
  }
  return {
    unit_id: f.unit_id,
    path: f.path,
    symbol: f.symbol,
    kind: f.kind,
    status: baseline && current ? (changes.length ? "changed" : "unchanged") : status,
    baseline: baseline ? stateOf(baseline) : null,
    current: current ? stateOf(current) : null,
    changes,
    executorsAdded,
    executorsRemoved,
  };
}

const byPath = (a: UnitDiff, b: UnitDiff) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0);
const strongest = (side: (d: UnitDiff) => UnitState | null) => (a: UnitDiff, b: UnitDiff) => side(b)!.agreement - side(a)!.agreement || side(b)!.relevance - side(a)!.relevance || byPath(a, b);
/** Biggest agreement moves first, then relevance moves. */
const biggestMove = (a: UnitDiff, b: UnitDiff) => {
  const da = (d: UnitDiff) => Math.abs(d.current!.agreement - d.baseline!.agreement);
  const dr = (d: UnitDiff) => Math.abs(d.current!.relevance - d.baseline!.relevance);
  return da(b) - da(a) || dr(b) - dr(a) || byPath(a, b);
};

const contradictionKey = (c: Contradiction) => `${c.unit_id}\u0000${c.field}`;

function compareSignals(baseline: CompareSide["convergence"], current: CompareSide["convergence"]): SignalsComparison {
  const row = (signal: SignalRow["signal"], threshold: number | null, role: SignalRow["role"], b: number | null, c: number | null): SignalRow => {
    const delta = b === null || c === null ? null : round3(c - b);
    return { signal, threshold, role, baseline: b, current: c, delta, changed: delta === null ? b !== c : delta !== 0 };
  };
  const rows = SIGNAL_THRESHOLDS.map((t) => row(t.signal, t.threshold, t.role, baseline.signals?.[t.signal] ?? null, current.signals?.[t.signal] ?? null));
  rows.push(row("score", null, "telemetry", baseline.score, current.score));
  const blocking = (side: CompareSide["convergence"]) => side.blockers.filter((b) => b.severity === "blocking").map((b) => b.type);
  return {
    rows,
    decision: { baseline: baseline.decision, current: current.decision, changed: baseline.decision !== current.decision },
    blockers: { baseline: blocking(baseline), current: blocking(current) },
  };
}

/** Everything that differs between the baseline and the current side, matched by unit_id. */
export function compareRegistries(baseline: CompareSide, current: CompareSide): RunComparison {
  const before = new Map(baseline.findings.map((f) => [f.unit_id, f]));
  const units: Record<CompareSection, UnitDiff[]> = { added: [], dropped: [], changed: [], unchanged: [] };
  const seen = new Set<string>();
  for (const f of current.findings) {
    seen.add(f.unit_id);
    const b = before.get(f.unit_id) ?? null;
    const d = diffOf(f, "added", b, f);
    units[d.status].push(d);
  }
  for (const f of baseline.findings) if (!seen.has(f.unit_id)) units.dropped.push(diffOf(f, "dropped", f, null));
  units.added.sort(strongest((d) => d.current));
  units.dropped.sort(strongest((d) => d.baseline));
  units.changed.sort(biggestMove);
  units.unchanged.sort(strongest((d) => d.current));

  const beforeC = new Set(baseline.contradictions.map(contradictionKey));
  const afterC = new Set(current.contradictions.map(contradictionKey));
  const newC = current.contradictions.filter((c) => !beforeC.has(contradictionKey(c)));
  const resolvedC = baseline.contradictions.filter((c) => !afterC.has(contradictionKey(c)));

  const moved = units.changed.filter((d) => d.changes.includes("agreement"));
  return {
    counts: {
      baseline: baseline.findings.length,
      current: current.findings.length,
      added: units.added.length,
      dropped: units.dropped.length,
      changed: units.changed.length,
      unchanged: units.unchanged.length,
      agreementChanged: moved.length,
      agreementUp: moved.filter((d) => d.current!.agreement > d.baseline!.agreement).length,
      agreementDown: moved.filter((d) => d.current!.agreement < d.baseline!.agreement).length,
      relevanceChanged: units.changed.filter((d) => d.changes.includes("relevance")).length,
      bucketChanged: units.changed.filter((d) => d.changes.includes("bucket")).length,
      contradictionsNew: newC.length,
      contradictionsResolved: resolvedC.length,
    },
    units,
    contradictions: { new: newC, resolved: resolvedC },
    signals: compareSignals(baseline.convergence, current.convergence),
  };
}

/** True when nothing about the findings, contradictions or signals differs. */
export function isUnchanged(c: RunComparison): boolean {
  const n = c.counts;
  return n.added + n.dropped + n.changed + n.contradictionsNew + n.contradictionsResolved === 0 && !c.signals.decision.changed && c.signals.rows.every((r) => !r.changed);
}

export interface CompareList {
  /** Rows in the list (before paging). */
  matched: number;
  offset: number;
  rows: UnitDiff[];
}

/** What a request gets: counts and signals whole, every list bounded. */
export interface CompareWindow {
  changesOnly: boolean;
  unchanged: boolean;
  counts: CompareCounts;
  signals: SignalsComparison;
  contradictions: { new: Contradiction[]; resolved: Contradiction[] };
  /** The lists this mode shows (unchanged is left out in changes-only mode), with their sizes. */
  sections: { name: CompareSection; count: number }[];
  /** The requested section's window, or the first window of each section. */
  lists: Partial<Record<CompareSection, CompareList>>;
}

export function compareWindow(c: RunComparison, req: Pick<CompareRequest, "changesOnly" | "section" | "offset" | "limit">): CompareWindow {
  const names = COMPARE_SECTIONS.filter((s) => !(req.changesOnly && s === "unchanged"));
  const lists: Partial<Record<CompareSection, CompareList>> = {};
  for (const name of req.section ? names.filter((s) => s === req.section) : names) {
    const offset = req.section ? req.offset : 0;
    lists[name] = { matched: c.units[name].length, offset, rows: c.units[name].slice(offset, offset + req.limit) };
  }
  return {
    changesOnly: req.changesOnly,
    unchanged: isUnchanged(c),
    counts: c.counts,
    signals: req.changesOnly ? { ...c.signals, rows: c.signals.rows.filter((r) => r.changed) } : c.signals,
    contradictions: { new: c.contradictions.new.slice(0, CONTRADICTIONS_SHOWN), resolved: c.contradictions.resolved.slice(0, CONTRADICTIONS_SHOWN) },
    sections: names.map((name) => ({ name, count: c.units[name].length })),
    lists,
  };
}
