/**
 * Convergence of one deep-context packet on disk: finds the packet, takes its stored graph
 * (`coverage-graph.json`, see graph-file.ts) or derives one from seat files and delta findings,
 * evaluates it, and replays the host loop over the state log. Used by `workbench converge`.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { WorkbenchError } from "../../core/errors";
import type { CoverageGraph } from "../types";
import { AGREEMENT_MIN } from "./constants";
import { decideContext, type ConvergencePayload, type ConvergenceSnapshot } from "./decide";
import { deriveCoverageGraph } from "./derive-graph";
import { GRAPH_FILE_NAME, parseGraphFile } from "./graph-file";
import type { Memo } from "../memo";
import { settledFingerprint } from "../run-cache";
import { replayHostLoop, type ReplayResult } from "./replay";
import { readSeatAndDeltaFindings } from "./seat-files";
import { mergeFindingsLite } from "./seat-merge-lite";
import type { SignalVariant } from "./signals";
import { formatIssues } from "./jsonl-lines";
import { contextConfigFileSchema, logThroughIteration, numericSignals, parseContextStateLog, type ContextStateLog } from "./state-log";

export const STATE_LOG_NAME = "deep-context-state.jsonl";
export const CONFIG_FILE_NAME = "deep-context-config.json";

export type GraphSource =
  | { origin: "stored"; file: string }
  | { origin: "derived"; seatFiles: string[]; deltaFiles: string[]; units: number; iterations: number; runsWithoutFindings: number[] };

export interface PacketConvergence {
  packetDir: string;
  variant: SignalVariant;
  graph: CoverageGraph;
  graphSource: GraphSource;
  payload: ConvergencePayload;
  replay: ReplayResult | null;
  warnings: string[];
}

async function exists(p: string): Promise<boolean> {
  return fs.stat(p).then(
    () => true,
    () => false,
  );
}

/** The packet directory: the folder itself when it holds the state log or a graph, else its context/ child. */
export async function resolvePacketDir(specFolder: string): Promise<string> {
  const root = path.resolve(specFolder);
  const stat = await fs.stat(root).catch(() => null);
  if (!stat || !stat.isDirectory()) throw new WorkbenchError("NOT_FOUND", `No folder at ${specFolder}`);
  for (const dir of [root, path.join(root, "context")]) {
    if ((await exists(path.join(dir, STATE_LOG_NAME))) || (await exists(path.join(dir, GRAPH_FILE_NAME)))) return dir;
  }
  throw new WorkbenchError(
    "INVALID_INPUT",
    `No deep-context packet in ${specFolder}: expected ${STATE_LOG_NAME} or ${GRAPH_FILE_NAME} in it or in its context/ folder`,
  );
}

async function readJson(file: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch {
    throw new WorkbenchError("NOT_FOUND", `No ${what} at ${file}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new WorkbenchError("UNREADABLE", `${what} at ${file} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** graph_convergence events as prior snapshots (oldest first) for scoreDelta and momentum. */
export function snapshotsFromLog(log: ContextStateLog): ConvergenceSnapshot[] {
  return log.events
    .filter((e) => e.event === "graph_convergence" && e.run !== undefined && e.signals)
    .map((e) => ({ iteration: e.run as number, metrics: numericSignals(e.signals) }));
}

export interface EvaluateOptions {
  variant?: SignalVariant;
  graphFile?: string;
  /** Convergence as it stood after this iteration (run comparison); absent: the whole run. */
  throughIteration?: number;
  /** Keeps the merged seat and delta findings while those files are unchanged (the run page). */
  seatMemo?: Memo;
  /** Keeps the derived graph's unit part while the findings and the slices they were seen in are unchanged. */
  graphMemo?: Memo;
}

/**
 * A stored graph cut back to iteration `last`: nodes stamped with a later `metadata.iteration`
 * and their edges go (unstamped nodes stay: the graph file does not say when they came).
 */
function graphThroughIteration(graph: CoverageGraph, last: number): CoverageGraph {
  const nodes = graph.nodes.filter((n) => typeof n.metadata.iteration !== "number" || n.metadata.iteration <= last);
  const kept = new Set(nodes.map((n) => n.id));
  return { ...graph, nodes, edges: graph.edges.filter((e) => kept.has(e.source) && kept.has(e.target)) };
}

/** The settled fingerprints of a packet's seats/ and deltas/ folders, or null while either is changing. */
function settledSeatsAndDeltas(packetDir: string): string | null {
  const seats = settledFingerprint(path.join(packetDir, "seats"));
  const deltas = seats === null ? null : settledFingerprint(path.join(packetDir, "deltas"));
  return seats === null || deltas === null ? null : `${seats}\u0002${deltas}`;
}

export async function evaluatePacket(specFolder: string, opts: EvaluateOptions = {}): Promise<PacketConvergence> {
  const variant = opts.variant ?? "documented";
  const last = opts.throughIteration;
  const packetDir = await resolvePacketDir(specFolder);
  const warnings: string[] = [];

  const logPath = path.join(packetDir, STATE_LOG_NAME);
  const fullLog: ContextStateLog | null = (await exists(logPath)) ? parseContextStateLog(await fs.readFile(logPath, "utf8")) : null;
  const log = fullLog && last !== undefined ? logThroughIteration(fullLog, last) : fullLog;
  for (const w of log?.warnings ?? []) warnings.push(`${STATE_LOG_NAME} line ${w.line}: ${w.error}`);

  let fileConfig: Record<string, unknown> | null = null;
  const configPath = path.join(packetDir, CONFIG_FILE_NAME);
  if (await exists(configPath)) {
    let body: unknown;
    try {
      body = JSON.parse(await fs.readFile(configPath, "utf8"));
    } catch {
      warnings.push(`${CONFIG_FILE_NAME} is not valid JSON; ignored`);
    }
    if (body !== undefined) {
      const parsed = contextConfigFileSchema.safeParse(body);
      if (parsed.success) fileConfig = parsed.data;
      else warnings.push(`${CONFIG_FILE_NAME} ignored: ${formatIssues(parsed.error.issues.slice(0, 3))}`);
    }
  }

  let graph: CoverageGraph;
  let graphSource: GraphSource;
  let contradictions: number | undefined;
  const graphPath = opts.graphFile ? path.resolve(/*turbopackIgnore: true*/ opts.graphFile) : path.join(/*turbopackIgnore: true*/ packetDir, GRAPH_FILE_NAME);
  if (opts.graphFile || (await exists(graphPath))) {
    let parsed: ReturnType<typeof parseGraphFile>;
    try {
      parsed = parseGraphFile(await readJson(graphPath, "coverage graph"));
    } catch (e) {
      if (e instanceof WorkbenchError) throw e;
      throw new WorkbenchError("UNREADABLE", `${graphPath}: ${e instanceof Error ? e.message : String(e)}`);
    }
    graph = last === undefined ? parsed.graph : graphThroughIteration(parsed.graph, last);
    warnings.push(...parsed.warnings.map((w) => `${path.basename(graphPath)}: ${w}`));
    graphSource = { origin: "stored", file: graphPath };
  } else {
    const readMerged = async () => {
      const found = await readSeatAndDeltaFindings(packetDir);
      const merged = mergeFindingsLite(last === undefined ? found.findings : found.findings.filter((f) => f.iteration <= last));
      return { seatFiles: found.seatFiles, deltaFiles: found.deltaFiles, warnings: found.warnings, merged };
    };
    const slot = [packetDir, last ?? ""].join("\u0001");
    // Taken before the folders are read: a file that lands in between makes the next call read again.
    const seatVersion = opts.seatMemo || opts.graphMemo ? settledSeatsAndDeltas(packetDir) : null;
    const seats = await (opts.seatMemo ? opts.seatMemo.get(`lite\u0001${slot}`, seatVersion, readMerged) : readMerged());
    const merged = seats.merged;
    warnings.push(...seats.warnings.map((w) => `${w.file}: ${w.reason}${w.symbol ? ` (${w.symbol})` : ""}`));
    const iterations = (log?.iterations ?? []).map((it) => {
      const d: { run: number; focus?: string; slices?: string[] } = { run: it.run };
      if (it.focus) d.focus = it.focus;
      if (it.slices) d.slices = it.slices;
      return d;
    });
    const agreementMin =
      (typeof fileConfig?.agreementMin === "number" ? fileConfig.agreementMin : undefined) ?? log?.config?.agreementMin ?? AGREEMENT_MIN;
    graph = deriveCoverageGraph(
      { units: merged.units, iterations, agreementMin },
      opts.graphMemo ? { memo: opts.graphMemo, slot: `graph\u0001${slot}`, version: seatVersion } : undefined,
    );
    contradictions = merged.contradictions.length;
    const seenRuns = new Set(merged.units.flatMap((u) => u.iterations ?? [u.firstIteration]));
    graphSource = {
      origin: "derived",
      seatFiles: seats.seatFiles,
      deltaFiles: seats.deltaFiles,
      units: merged.units.length,
      iterations: iterations.length,
      runsWithoutFindings: iterations.map((i) => i.run).filter((r) => !seenRuns.has(r)),
    };
  }

  const notes =
    graphSource.origin === "derived"
      ? [
          `Graph derived from ${graphSource.seatFiles.length} seat file(s) and ${graphSource.deltaFiles.length} delta file(s); no ${GRAPH_FILE_NAME} in the packet.`,
        ]
      : [`Graph read from ${graphSource.file}.`];
  const sessionId =
    [...(log?.events ?? []), ...(log?.iterations ?? [])].map((r) => r.sessionId).filter((s): s is string => typeof s === "string").pop() ?? "";
  const payload = decideContext(graph, {
    variant,
    ...(contradictions !== undefined ? { contradictions } : {}),
    snapshots: log ? snapshotsFromLog(log) : [],
    namespace: { specFolder: log?.config?.specFolder ?? specFolder, sessionId },
    notes,
  });
  const replay = log ? replayHostLoop(log, {}, fileConfig) : null;
  return { packetDir, variant, graph, graphSource, payload, replay, warnings };
}
