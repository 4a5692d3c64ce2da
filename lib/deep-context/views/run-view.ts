import path from "node:path";
import { WorkbenchError } from "../../core/errors";
import { ProjectFs } from "../../core/project-fs";
import { agreementView, type AgreementView } from "./agreement";
import { readContextReport, type ContextReport } from "./context-report";
import {
  SIGNAL_NAMES,
  SIGNAL_THRESHOLDS,
  type ConvergencePayload,
  evaluatePacket,
  type GraphSource,
  type SignalVariant,
  type ReplayResult,
  parseContextStateLog,
  type ContextEventRecord,
  type ContextIterationRecord,
} from "../convergence";
import { lruMemo, type Memo } from "../memo";
import { reduceContextState } from "../reducer";
import { eventsInTimeOrder } from "./event-order";
import { type RunExecutor, runExecutors, seatFileLabels } from "./executors";
import { LISTED_WARNINGS } from "./run-window";
import { type SignalProvenance, signalProvenance } from "./signal-provenance";
import type { CorruptionWarning, FindingsRegistry, RegistryFinding, StateLogReading } from "../types";

export interface FindingRow extends RegistryFinding {
  bucket: string;
  contradicted: boolean;
}

export interface RunView {
  relPath: string;
  /** Which signal formulas the convergence payload used (FORMATS.md §1: documented or stored). */
  variant: SignalVariant;
  scope: string | null;
  convergenceThreshold: number;
  iterations: ContextIterationRecord[];
  /** The log's events in time order, ties in log order (see event-order.ts). */
  events: ContextEventRecord[];
  /** Where each gate's numbers come from: the state log or the Workbench's convergence. */
  provenance: SignalProvenance;
  /** The run's executors (see executors.ts): the same definition as the run list's. */
  executors: RunExecutor[];
  signalThresholds: { signal: string; threshold: number; role: string }[];
  payload: ConvergencePayload;
  replay: ReplayResult | null;
  graphSource: GraphSource;
  graph: { nodes: number; edges: number; byKind: Record<string, number> };
  /** The graph to draw: everything up to DRAW_LIMIT nodes, else the best-connected ones. */
  drawing: { nodes: { id: string; kind: string; label: string }[]; edges: { id: string; source: string; target: string; relation: string }[]; truncated: boolean };
  registry: Omit<FindingsRegistry, "reuseCandidates" | "integrationPoints" | "conventions" | "dependencies" | "gaps" | "lowConfidence"> | null;
  findings: FindingRow[];
  agreement: AgreementView | null;
  report: ContextReport | null;
  /** How the state log was read for the registry (null when it could not be computed). */
  stateLog: StateLogView | null;
  warnings: string[];
}

export interface StateLogView {
  reading: StateLogReading;
  /** A torn tail left out: its bytes (`workbench reduce` would cut them off the file; the page never writes). */
  droppedBytes: number;
  /** Lines not read (corrupt, or nested too deep), the first LISTED_WARNINGS of them. */
  corruptLines: CorruptionWarning[];
  corruptLineCount: number;
}

// Seat-derived work kept across views of a packet (see memo.ts). On globalThis because Next
// bundles each route separately. Each entry of a 100,000-finding packet is tens of MB.
const shared = globalThis as { __workbenchSeatMemos?: { reduce: Memo; lite: Memo; graph: Memo } };
const memos = (shared.__workbenchSeatMemos ??= { reduce: lruMemo(3), lite: lruMemo(3), graph: lruMemo(2) });

/** More nodes than this make a force layout unreadable and slow in a browser. */
const DRAW_LIMIT = 600;

const BUCKETS = ["reuseCandidates", "integrationPoints", "conventions", "dependencies", "gaps", "lowConfidence"] as const;

export interface RunViewOptions {
  /** The run as it stood after this iteration (a comparison baseline); absent: the whole run. */
  throughIteration?: number;
}

/**
 * Everything the run page shows, read from the packet on disk (read-only: the state log
 * is not repaired in place and nothing is written).
 */
export async function loadRunView(projectRoot: string, relPath: string, variant: SignalVariant = "documented", opts: RunViewOptions = {}): Promise<RunView> {
  const pfs = await ProjectFs.open(projectRoot);
  if (!(await pfs.isDir(relPath))) throw new WorkbenchError("NOT_FOUND", `No run packet at ${relPath}.`);
  const dir = pfs.resolve(relPath);
  const warnings: string[] = [];
  const last = opts.throughIteration;
  const conv = await evaluatePacket(dir, { variant, throughIteration: last, seatMemo: memos.lite, graphMemo: memos.graph, fs: pfs });
  warnings.push(...conv.warnings);
  // The log convergence read (already cut to `throughIteration`); its bad lines are in conv.warnings.
  const log = conv.log ?? parseContextStateLog("");

  let registry: FindingsRegistry | null = null;
  let stateLog: StateLogView | null = null;
  try {
    const reduced = reduceContextState(path.dirname(dir), { write: false, readOnly: true, throughIteration: last, seatMemo: memos.reduce, fs: pfs });
    registry = reduced.registry();
    stateLog = {
      reading: reduced.stateLogReading,
      droppedBytes: reduced.stateLogRepair.droppedBytes,
      corruptLines: reduced.corruptionWarnings.slice(0, LISTED_WARNINGS),
      corruptLineCount: reduced.corruptionWarnings.length,
    };
    for (const w of reduced.fileWarnings) warnings.push(w.message);
  } catch (e) {
    warnings.push(`The findings registry could not be computed: ${e instanceof Error ? e.message : String(e)}`);
  }
  const contradicted = new Set(registry?.contradictions.map((c) => c.unit_id) ?? []);
  const findings: FindingRow[] = registry ? BUCKETS.flatMap((b) => registry![b].map((f) => ({ ...f, bucket: b, contradicted: contradicted.has(f.unit_id) }))) : [];
  const byKind: Record<string, number> = {};
  for (const n of conv.graph.nodes) byKind[n.kind] = (byKind[n.kind] ?? 0) + 1;
  const { reuseCandidates: _a, integrationPoints: _b, conventions: _c, dependencies: _d, gaps: _e, lowConfidence: _f, ...registryRest } = registry ?? ({} as FindingsRegistry);
  const degree = new Map<string, number>();
  for (const e of conv.graph.edges) {
    degree.set(e.source, (degree.get(e.source) ?? 0) + 1);
    degree.set(e.target, (degree.get(e.target) ?? 0) + 1);
  }
  // The report is written at synthesis: it belongs to the whole run, not to an iteration.
  const report = last === undefined ? await readContextReport(pfs, relPath, (m) => warnings.push(m)) : null;
  const drawnNodes = conv.graph.nodes.length <= DRAW_LIMIT ? conv.graph.nodes : bestConnected(conv.graph.nodes, degree, DRAW_LIMIT);
  const drawnIds = new Set(drawnNodes.map((n) => n.id));
  return {
    relPath,
    variant,
    drawing: {
      nodes: drawnNodes.map((n) => ({ id: n.id, kind: n.kind, label: n.label })),
      edges: conv.graph.edges.filter((e) => drawnIds.has(e.source) && drawnIds.has(e.target)).map((e) => ({ id: e.id, source: e.source, target: e.target, relation: e.relation })),
      truncated: drawnNodes.length < conv.graph.nodes.length,
    },
    scope: log.config?.scope ?? null,
    convergenceThreshold: typeof log.config?.convergenceThreshold === "number" ? log.config.convergenceThreshold : 0.1,
    iterations: log.iterations,
    events: eventsInTimeOrder(log.events),
    provenance: signalProvenance({ payload: conv.payload, graphSource: conv.graphSource, iterations: log.iterations, events: log.events }),
    executors: runExecutors({ config: conv.config, events: log.events, seatFiles: seatFileLabels(pfs, relPath).filter((f) => last === undefined || f.iteration <= last) }),
    signalThresholds: SIGNAL_THRESHOLDS.map((t) => ({ ...t })),
    payload: conv.payload,
    replay: conv.replay,
    graphSource: conv.graphSource,
    graph: { nodes: conv.graph.nodes.length, edges: conv.graph.edges.length, byKind },
    registry: registry ? registryRest : null,
    findings,
    report,
    agreement: registry
      ? agreementView(
          findings.filter((f) => f.bucket !== "lowConfidence"),
          registry.executorPool,
        )
      : null,
    stateLog,
    warnings: withRefusals(warnings, pfs, path.posix.dirname(relPath)),
  };
}

/**
 * The view's warnings, then every refusal of the file layer under the spec folder not said
 * yet (a report or any other packet file linking out, a pipe…): no file is skipped silently.
 */
function withRefusals(warnings: string[], pfs: ProjectFs, specRel: string): string[] {
  const out = [...new Set(warnings)];
  const said = out.join("\n");
  for (const w of pfs.skipped) {
    if (specRel !== "" && specRel !== "." && !w.relPath.startsWith(`${specRel}/`)) continue;
    if (!said.includes(w.relPath.slice(specRel.length + 1))) out.push(w.message);
  }
  return out;
}

/**
 * The `limit` nodes with the most edges, ties in graph order (what a stable sort by degree
 * gives), sorting positions by a typed array of degrees: a graph of a large run has tens of
 * thousands of nodes, and a comparator looking both ids up costs a tenth of a second.
 */
export function bestConnected<N extends { id: string }>(nodes: readonly N[], degree: ReadonlyMap<string, number>, limit: number): N[] {
  const d = new Int32Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) d[i] = degree.get(nodes[i]!.id) ?? 0;
  const order = Array.from(d.keys()).sort((a, b) => d[b]! - d[a]! || a - b);
  return order.slice(0, limit).map((i) => nodes[i]!);
}

export { SIGNAL_NAMES };
