/**
 * Where each convergence number on the run page comes from. A deep-context run has three
 * sources of the five signals, and on a real packet they differ:
 * - the runtime's values, logged in each iteration's `graph_convergence` event (what the loop
 *   gated on, computed from the runtime's own coverage graph);
 * - the host's values in each `iteration` record (its own per-iteration figures, not gated on);
 * - the Workbench's own convergence over the packet's files as they are now (coverage-graph.json,
 *   or a graph derived from seat and delta files when the packet keeps none).
 * The gates and the charts read the same series from here, so a gate's logged value is the
 * last point of its chart and its computed value is the chart's marker; where the two differ,
 * `explanation` says why.
 */
import { SIGNAL_NAMES, SIGNAL_THRESHOLDS, type ContextEventRecord, type ContextIterationRecord, type ConvergencePayload, type GraphSource, type SignalName, type SignalRole } from "../convergence";

/** Where the page's per-iteration signal lines come from. */
export type LoggedSource = "graph_convergence" | "iteration";

export interface GateProvenance {
  signal: SignalName;
  threshold: number;
  role: SignalRole;
  /** The Workbench's convergence, through `computedThrough`; null when the graph is empty. */
  computed: { value: number; passed: boolean; vacuous: boolean; numerator: number; denominator: number; counts: string } | null;
  /** The last value the state log holds for it (from `loggedSource`), and its iteration. */
  logged: { value: number; run: number; passed: boolean } | null;
  /** Both present and different at the three decimals the page shows. */
  differs: boolean;
}

export interface SignalProvenance {
  loggedSource: LoggedSource | null;
  /** The last iteration of the log: the Workbench's values are the run through it. */
  computedThrough: number | null;
  /** What the Workbench computed from, in words. */
  computedFrom: string;
  gates: GateProvenance[];
  /** The Workbench's composite score (null on an empty graph). */
  computedScore: number | null;
  /** The latest composite score a graph_convergence event logged, and its iteration. */
  loggedScore: { value: number; run: number } | null;
  /** The latest graph decision the log holds, and its iteration. */
  loggedDecision: { decision: string; run: number | null } | null;
  /** Why computed and logged values differ, when any do. */
  explanation: string | null;
}

/** One iteration of the charts: `signal` logged, `signal:record` the iteration record's, `signal:computed` the Workbench's (last iteration only). */
export interface SignalPoint {
  run: number;
  [key: string]: number | null;
}

const COUNTED: Record<SignalName, string> = {
  sliceCoverage: "slices covered",
  reuseCatalogCoverage: "reuse candidates confirmed",
  agreementRate: "gated findings with agreement ≥ 2",
  relevanceFloor: "findings above the relevance gate",
  dependencyCompleteness: "dependencies depended on",
};

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
const shown = (v: number) => v.toFixed(3);

/** graph_convergence signals by run (a later event of the same run wins: it is the one the loop acted on last). */
function graphSignalsByRun(events: readonly ContextEventRecord[]): Map<number, Record<string, number>> {
  const out = new Map<number, Record<string, number>>();
  for (const e of events) {
    if (e.event !== "graph_convergence" || typeof e.run !== "number" || !e.signals) continue;
    const values: Record<string, number> = {};
    for (const [k, v] of Object.entries(e.signals)) if (num(v) !== null) values[k] = v as number;
    out.set(e.run, { ...out.get(e.run), ...values });
  }
  return out;
}

/** The log's own signals: graph_convergence events when any carries one of the five, else the iteration records. */
export function loggedSourceOf(iterations: readonly ContextIterationRecord[], events: readonly ContextEventRecord[]): LoggedSource | null {
  for (const values of graphSignalsByRun(events).values()) if (SIGNAL_NAMES.some((s) => s in values)) return "graph_convergence";
  return iterations.some((it) => SIGNAL_NAMES.some((s) => num((it as Record<string, unknown>)[s]) !== null)) ? "iteration" : null;
}

function ranges(runs: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < runs.length; i++) {
    let j = i;
    while (j + 1 < runs.length && runs[j + 1] === runs[j]! + 1) j++;
    out.push(j > i ? `${runs[i]}–${runs[j]}` : String(runs[i]));
    i = j;
  }
  return out.join(", ");
}

function describeSource(source: GraphSource): string {
  if (source.origin === "stored") return "the packet's coverage-graph.json as it is now";
  const files = `${source.seatFiles.length} seat file(s) and ${source.deltaFiles.length} delta file(s)`;
  const gaps = source.runsWithoutFindings.length ? `; iteration(s) ${ranges(source.runsWithoutFindings)} of ${source.iterations} have no findings in them` : "";
  return `a coverage graph derived from the packet's ${files}${gaps}`;
}

/** The gates with both sources, and why they differ (see the module comment). */
export function signalProvenance(input: { payload: ConvergencePayload; graphSource: GraphSource; iterations: readonly ContextIterationRecord[]; events: readonly ContextEventRecord[] }): SignalProvenance {
  const { payload, graphSource, iterations, events } = input;
  const d = payload.data;
  const loggedSource = loggedSourceOf(iterations, events);
  const byRun = loggedSource === "graph_convergence" ? graphSignalsByRun(events) : new Map(iterations.map((it) => [it.run, it as Record<string, unknown>]));
  const runs = [...byRun.keys()].sort((a, b) => a - b);
  const computedThrough = iterations.length ? Math.max(...iterations.map((it) => it.run)) : null;
  const gates: GateProvenance[] = SIGNAL_THRESHOLDS.map(({ signal, threshold, role }) => {
    const t = d.trace.find((x) => x.signal === signal);
    const b = d.breakdown?.[signal];
    const computed = t && b ? { value: t.value, passed: t.passed, vacuous: b.vacuous, numerator: b.numerator, denominator: b.denominator, counts: `${b.numerator} of ${b.denominator} ${COUNTED[signal]}` } : null;
    let logged: GateProvenance["logged"] = null;
    for (let i = runs.length - 1; i >= 0 && !logged; i--) {
      const v = num(byRun.get(runs[i]!)?.[signal]);
      if (v !== null) logged = { value: v, run: runs[i]!, passed: v >= threshold };
    }
    return { signal, threshold, role, computed, logged, differs: Boolean(computed && logged && shown(computed.value) !== shown(logged.value)) };
  });
  const computedFrom = describeSource(graphSource);
  const differing = gates.filter((g) => g.differs);
  let explanation: string | null = null;
  if (differing.length) {
    const logged =
      loggedSource === "graph_convergence"
        ? "The state log's values are what the loop's runtime computed at each iteration from its own coverage graph"
        : "The state log's values are the host's figures in its iteration records (the log has no graph_convergence signals)";
    const kept = graphSource.origin === "stored" ? "which may have changed since" : "which this packet does not keep";
    const variant = d.variant === "stored" ? " The Workbench also uses the stored-code signal formulas (see Signal formulas)." : "";
    explanation = `${differing.map((g) => g.signal).join(", ")} differ. ${logged}, ${kept}. The Workbench computes them again from ${computedFrom}, so its counts are of what the packet holds now.${variant}`;
  }
  const lastDecision = [...events].reverse().find((e) => e.event === "graph_convergence" && typeof e.decision === "string");
  const loggedDecision = lastDecision ? { decision: lastDecision.decision as string, run: typeof lastDecision.run === "number" ? lastDecision.run : null } : null;
  const scored = [...graphSignalsByRun(events)]
    .filter(([, v]) => num(v.score) !== null)
    .sort((a, b) => a[0] - b[0])
    .pop();
  const loggedScore = scored ? { value: scored[1].score!, run: scored[0] } : null;
  return { loggedSource, computedThrough, computedFrom, gates, computedScore: d.signals ? d.score : null, loggedScore, loggedDecision, explanation };
}

/**
 * The chart points of `iterations` (one window of them): the logged values per run, each
 * iteration record's own values, and on the log's last iteration the Workbench's values.
 */
export function signalPoints(iterations: readonly ContextIterationRecord[], events: readonly ContextEventRecord[], provenance: SignalProvenance): SignalPoint[] {
  const graph = graphSignalsByRun(events);
  return iterations.map((it) => {
    const rec = it as Record<string, unknown>;
    const p: SignalPoint = { run: it.run };
    const logged = provenance.loggedSource === "graph_convergence" ? graph.get(it.run) : rec;
    for (const s of SIGNAL_NAMES) {
      p[s] = num(logged?.[s]);
      p[`${s}:record`] = num(rec[s]);
    }
    p.score = num(graph.get(it.run)?.score);
    if (it.run === provenance.computedThrough) {
      for (const g of provenance.gates) p[`${g.signal}:computed`] = g.computed?.value ?? null;
      p["score:computed"] = provenance.computedScore;
    }
    const fresh = num(rec.newAgreementEligible) ?? 0;
    p.newAgreementEligible = fresh;
    p.newRatio = Math.round((fresh / Math.max(1, num(rec.findingsCount) ?? 0)) * 1000) / 1000;
    return p;
  });
}
