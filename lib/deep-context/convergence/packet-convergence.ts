/**
 * Convergence of one deep-context packet on disk: finds the packet, takes its stored graph
 * (`coverage-graph.json`, see graph-file.ts) or derives one from seat files and delta findings,
 * evaluates it, and replays the host loop over the state log. Used by `workbench converge`.
 *
 * Every file is read through the project's file layer (rooted at the repository holding the
 * spec folder, or the caller's project): a packet folder that links out of it is refused, a
 * packet file it refuses or one nested deeper than MAX_NESTING is a warning, never read.
 */
import path from "node:path";
import { WorkbenchError, isWorkbenchError } from "../../core/errors";
import { ProjectFs } from "../../core/project-fs";
import { type BoundedJson, parseBoundedJson } from "../bounded-json";
import { type Place, childOf, openSpecFolder, probe, refusalText } from "../place";
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

export type GraphSource = { origin: "stored"; file: string } | { origin: "derived"; seatFiles: string[]; deltaFiles: string[]; units: number; iterations: number; runsWithoutFindings: number[] };

export interface PacketConvergence {
  packetDir: string;
  variant: SignalVariant;
  graph: CoverageGraph;
  graphSource: GraphSource;
  payload: ConvergencePayload;
  replay: ReplayResult | null;
  /** The state log as read (through `throughIteration` when given), or null without one. */
  log: ContextStateLog | null;
  /** deep-context-config.json as parsed (its host-loop settings checked), or null without a usable one. */
  config: Record<string, unknown> | null;
  warnings: string[];
}

/** A packet file that is there, even if the file layer refuses to read it (it is then a warning, not "no packet"). */
function present(pfs: ProjectFs, rel: string): boolean {
  return probe(pfs, rel).kind !== "missing";
}

/** The packet folder: the spec folder itself when it holds the state log or a graph, else its context/ child. */
export function resolvePacketPlace(pfs: ProjectFs, spec: Place, shown: string): Place {
  const what = probe(pfs, spec.rel);
  if (what.kind === "refused") throw new WorkbenchError("UNSAFE_PATH", `${shown}: ${refusalText(what.refusal)}`);
  if (what.kind !== "dir") throw new WorkbenchError("NOT_FOUND", `No folder at ${shown}`);
  for (const dir of [spec, childOf(spec, "context")]) {
    const at = probe(pfs, dir.rel);
    if (at.kind === "refused") {
      throw new WorkbenchError("UNSAFE_PATH", `The folder ${dir.rel || "."} is refused: ${refusalText(at.refusal)} Nothing is read through it.`);
    }
    if (present(pfs, path.posix.join(dir.rel, STATE_LOG_NAME)) || present(pfs, path.posix.join(dir.rel, GRAPH_FILE_NAME))) return dir;
  }
  throw new WorkbenchError("INVALID_INPUT", `No deep-context packet in ${shown}: expected ${STATE_LOG_NAME} or ${GRAPH_FILE_NAME} in it or in its context/ folder`);
}

/** The packet directory (absolute, under the spec folder as given); see resolvePacketPlace. */
export async function resolvePacketDir(specFolder: string, fs?: ProjectFs): Promise<string> {
  const { pfs, spec } = openSpecFolder(specFolder, fs);
  return resolvePacketPlace(pfs, spec, specFolder).abs;
}

/** A packet file's text, or the warning that replaces it (refused by the file layer); null when missing. */
async function readPacketText(pfs: ProjectFs, rel: string, kind: "json" | "log", warnings: string[]): Promise<string | null> {
  try {
    return await pfs.readText(rel, { kind });
  } catch (e) {
    if (!isWorkbenchError(e)) throw e;
    if (e.code !== "NOT_FOUND") warnings.push(`${path.posix.basename(rel)} not read: ${refusalText({ relPath: rel, code: "unreadable", message: e.message })}`);
    return null;
  }
}

/**
 * The stored graph file: the packet's own, or the one the caller names (read through a file
 * layer rooted at its own folder when it lies outside the project). Null, with a warning, when
 * the file layer refuses it or it is nested too deep: the graph is then derived.
 */
async function readGraphJson(pfs: ProjectFs, file: string, explicit: boolean, warnings: string[]): Promise<BoundedJson | null> {
  let gfs = pfs;
  let rel = pfs.relOf(file);
  if (rel === null) {
    try {
      gfs = await ProjectFs.open(path.dirname(file));
    } catch {
      throw new WorkbenchError("NOT_FOUND", `No coverage graph at ${file}`);
    }
    rel = path.basename(file);
  }
  let text: string;
  try {
    text = await gfs.readText(rel, { kind: "json", maxBytes: 64 * 1024 * 1024 });
  } catch (e) {
    if (!isWorkbenchError(e)) throw e;
    if (e.code === "NOT_FOUND") {
      if (explicit) throw new WorkbenchError("NOT_FOUND", `No coverage graph at ${file}`);
      return null;
    }
    warnings.push(`${path.basename(file)} not read: ${refusalText({ relPath: rel, code: "unreadable", message: e.message })}; the graph is derived from the seat files.`);
    return null;
  }
  const parsed = parseBoundedJson(text);
  if (!parsed.ok && parsed.tooDeep) {
    warnings.push(`${path.basename(file)}: ${parsed.error}; the graph is derived from the seat files.`);
    return null;
  }
  return parsed;
}

/** graph_convergence events as prior snapshots (oldest first) for scoreDelta and momentum. */
export function snapshotsFromLog(log: ContextStateLog): ConvergenceSnapshot[] {
  return log.events.filter((e) => e.event === "graph_convergence" && e.run !== undefined && e.signals).map((e) => ({ iteration: e.run as number, metrics: numericSignals(e.signals) }));
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
  /** The project's file layer when the caller has one (the server); absent: see openSpecFolder. */
  fs?: ProjectFs;
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
function settledSeatsAndDeltas(pfs: ProjectFs, packetRel: string): string | null {
  const seats = settledFingerprint(pfs, path.posix.join(packetRel, "seats"));
  const deltas = seats === null ? null : settledFingerprint(pfs, path.posix.join(packetRel, "deltas"));
  return seats === null || deltas === null ? null : `${seats}\u0002${deltas}`;
}

export async function evaluatePacket(specFolder: string, opts: EvaluateOptions = {}): Promise<PacketConvergence> {
  const variant = opts.variant ?? "documented";
  const last = opts.throughIteration;
  const { pfs, spec } = openSpecFolder(specFolder, opts.fs);
  const packet = resolvePacketPlace(pfs, spec, specFolder);
  const packetDir = packet.abs;
  const warnings: string[] = [];

  const logText = await readPacketText(pfs, path.posix.join(packet.rel, STATE_LOG_NAME), "log", warnings);
  const fullLog: ContextStateLog | null = logText === null ? null : parseContextStateLog(logText);
  const log = fullLog && last !== undefined ? logThroughIteration(fullLog, last) : fullLog;
  for (const w of log?.warnings ?? []) warnings.push(`${STATE_LOG_NAME} line ${w.line}: ${w.error}`);

  let fileConfig: Record<string, unknown> | null = null;
  const configText = await readPacketText(pfs, path.posix.join(packet.rel, CONFIG_FILE_NAME), "json", warnings);
  if (configText !== null) {
    const body = parseBoundedJson(configText);
    if (!body.ok) {
      warnings.push(body.tooDeep ? `${CONFIG_FILE_NAME} ${body.error}; ignored` : `${CONFIG_FILE_NAME} is not valid JSON; ignored`);
    } else {
      const parsed = contextConfigFileSchema.safeParse(body.value);
      if (parsed.success) fileConfig = parsed.data;
      else warnings.push(`${CONFIG_FILE_NAME} ignored: ${formatIssues(parsed.error.issues.slice(0, 3))}`);
    }
  }

  let graph: CoverageGraph | null = null;
  let graphSource: GraphSource | null = null;
  let contradictions: number | undefined;
  const graphPath = opts.graphFile ? path.resolve(/*turbopackIgnore: true*/ opts.graphFile) : path.join(/*turbopackIgnore: true*/ packetDir, GRAPH_FILE_NAME);
  const graphRel = path.posix.join(packet.rel, GRAPH_FILE_NAME);
  if (opts.graphFile || present(pfs, graphRel)) {
    const body = await readGraphJson(pfs, opts.graphFile ? graphPath : path.join(pfs.root, graphRel), Boolean(opts.graphFile), warnings);
    if (body !== null) {
      if (!body.ok) throw new WorkbenchError("UNREADABLE", `coverage graph at ${graphPath} is not valid JSON: ${body.error}`);
      let parsed: ReturnType<typeof parseGraphFile>;
      try {
        parsed = parseGraphFile(body.value);
      } catch (e) {
        throw new WorkbenchError("UNREADABLE", `${graphPath}: ${e instanceof Error ? e.message : String(e)}`);
      }
      graph = last === undefined ? parsed.graph : graphThroughIteration(parsed.graph, last);
      warnings.push(...parsed.warnings.map((w) => `${path.basename(graphPath)}: ${w}`));
      graphSource = { origin: "stored", file: graphPath };
    }
  }
  if (graph === null || graphSource === null) {
    const readMerged = async () => {
      const found = await readSeatAndDeltaFindings(pfs, packet.rel);
      const merged = mergeFindingsLite(last === undefined ? found.findings : found.findings.filter((f) => f.iteration <= last));
      return { seatFiles: found.seatFiles, deltaFiles: found.deltaFiles, warnings: found.warnings, merged };
    };
    const slot = [pfs.root, packet.rel, last ?? ""].join("\u0001");
    // Taken before the folders are read: a file that lands in between makes the next call read again.
    const seatVersion = opts.seatMemo || opts.graphMemo ? settledSeatsAndDeltas(pfs, packet.rel) : null;
    const seats = await (opts.seatMemo ? opts.seatMemo.get(`lite\u0001${slot}`, seatVersion, readMerged) : readMerged());
    const merged = seats.merged;
    warnings.push(...seats.warnings.map((w) => `${w.file}: ${w.reason}${w.symbol ? ` (${w.symbol})` : ""}`));
    const iterations = (log?.iterations ?? []).map((it) => {
      const d: { run: number; focus?: string; slices?: string[] } = { run: it.run };
      if (it.focus) d.focus = it.focus;
      if (it.slices) d.slices = it.slices;
      return d;
    });
    const agreementMin = (typeof fileConfig?.agreementMin === "number" ? fileConfig.agreementMin : undefined) ?? log?.config?.agreementMin ?? AGREEMENT_MIN;
    graph = deriveCoverageGraph({ units: merged.units, iterations, agreementMin }, opts.graphMemo ? { memo: opts.graphMemo, slot: `graph\u0001${slot}`, version: seatVersion } : undefined);
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
      ? [`Graph derived from ${graphSource.seatFiles.length} seat file(s) and ${graphSource.deltaFiles.length} delta file(s); no ${GRAPH_FILE_NAME} in the packet.`]
      : [`Graph read from ${graphSource.file}.`];
  const sessionId =
    [...(log?.events ?? []), ...(log?.iterations ?? [])]
      .map((r) => r.sessionId)
      .filter((s): s is string => typeof s === "string")
      .pop() ?? "";
  const payload = decideContext(graph, {
    variant,
    ...(contradictions !== undefined ? { contradictions } : {}),
    snapshots: log ? snapshotsFromLog(log) : [],
    namespace: { specFolder: log?.config?.specFolder ?? specFolder, sessionId },
    notes,
  });
  const replay = log ? replayHostLoop(log, {}, fileConfig) : null;
  return { packetDir, variant, graph, graphSource, payload, replay, log, config: fileConfig, warnings };
}
