/**
 * The deep-context reducer: a packet's state log + per-seat findings → findings-registry.json
 * and deep-context-dashboard.md, with the reference reduce-state.cjs@21d0218's outputs
 * (same keys, key order, values and text). Steps, in the reference's order:
 *
 * 1. packet folder: resolveArtifactRoot(path.resolve(specFolder), 'context');
 * 2. config (deep-context-config.json only; `{}` when missing or unparsable);
 * 3. state log: torn-tail repair (truncates the file), then parse with corruption warnings;
 *    a log with bad lines followed by others is left whole (see jsonl.ts);
 * 4. seats: every seat file of every iteration, validated and merged into units;
 * 5. registry (gate, buckets, contradictions, order, metrics) and lineage/status/graph;
 * 6. atomic writes of the registry and the dashboard.
 *
 * Every file is read and written through the project's file layer (ProjectFs), rooted at the
 * repository holding the spec folder: a packet folder that links out of it makes the reduce
 * fail before anything is read or written, a packet file that does is not read (a warning
 * says so), and the outputs are never written through a link.
 *
 * Idempotent: the same packet gives byte-identical files.
 */
import path from "node:path";
import { WorkbenchError } from "../../core/errors";
import type { ProjectFs } from "../../core/project-fs";
import { type PreparedWrite, allPrepared, prepareFileAtomic, prepareFileAtomicAsync } from "../../core/fs/atomic-write";
import { commitTogether, recoverCommits } from "../../core/fs/commit-together";
import type { FileWarning } from "../../core/warnings";
import { type ArtifactRoot, assertSafeSpecFolder, resolveContextArtifactRoot } from "./artifact-root";
import { renderDashboard } from "./dashboard";
import { readStateLog } from "./jsonl";
import type { Memo } from "../memo";
import { type PacketPaths, type SeatIteration, type SeatLayouts, listSeatIterations, packetPaths, readConfig } from "./packet";
import { type Place, openSpecFolder, probe, refusalText } from "../place";
import { settledFingerprint } from "../run-cache";
import { DEFAULT_AGREEMENT_MIN, DEFAULT_RELEVANCE_GATE, type RegistryBuckets, buildRegistryOf } from "./registry";
import { type SeatCollection, type SeatDecoder, collectSeats } from "./seats";
import { type RegistryTail, registryObject, writeRegistry } from "./serialize";
import { type JsonRecord, type StateRecords, graphRollupOf, lineageOf, splitRecords, statusOf } from "./state";
import { isFiniteNumber, toNumber } from "../text";
import type { CorruptionWarning, FindingsRegistry, ReduceSummary, SeatValidationWarning, StateLogReading, StateLogRepair } from "../types";

export interface ReduceOptions {
  /** Write the registry and dashboard (default true); false computes them only. */
  write?: boolean;
  /** Never write anything, not even the state log's tail repair (the dashboard's viewers). */
  readOnly?: boolean;
  /** "both" (default) also reads `seats/{label}/iter-NNN/*.json`; "reference" reads only what the reference reads. */
  layouts?: SeatLayouts;
  /** "scan" (default): the byte scanner; "parse": JSON.parse per seat file (the reference's way, slower). */
  decoder?: SeatDecoder;
  /**
   * The registry as it stood after this iteration: seat folders and state-log records of
   * later iterations are left out (run comparison). Absent: every iteration.
   */
  throughIteration?: number;
  /**
   * Keeps the seat collection between read-only calls while the seat files are unchanged (the
   * run page, which recomputes on every state line). Ignored when writing.
   */
  seatMemo?: Memo;
  /**
   * The project's file layer, when the caller has one (the server: the project root); the
   * spec folder must then lie under its root. Absent: opened at the repository holding the
   * spec folder (its nearest ancestor with `.git`), else at the spec folder itself.
   */
  fs?: ProjectFs;
}

export interface ReduceTimings {
  stateMs: number;
  seatsMs: number;
  registryMs: number;
  writeMs: number;
}

export interface ReduceResult extends PacketPaths {
  artifactRoot: ArtifactRoot;
  summary: ReduceSummary;
  dashboard: string;
  corruptionWarnings: CorruptionWarning[];
  seatValidationWarnings: SeatValidationWarning[];
  stateLogRepair: StateLogRepair;
  stateLogReading: StateLogReading;
  /** Packet files the file layer refused, or refused for their nesting: each names the file and why (not read). */
  fileWarnings: FileWarning[];
  /** Seat files read from the `seats/{label}/iter-NNN/` layout, which the reference ignores. */
  labelFirstSeatFiles: number;
  /** The byte scanner handed over to JSON.parse for this packet (a file it could not commit in one pass). */
  usedParseFallback: boolean;
  timings: ReduceTimings;
  /** findings-registry.json's exact text. */
  registryJson(): string;
  /** The registry as plain objects. */
  registry(): FindingsRegistry;
}

/** The spec folder as shown and as read, and the file layer to read it through. */
function locateSpec(specFolder: string, given: ProjectFs | undefined): { pfs: ProjectFs; spec: Place } {
  // Before anything is resolved: the reference refuses these names whatever is on disk.
  assertSafeSpecFolder(path.resolve(specFolder));
  return openSpecFolder(specFolder, given);
}

/**
 * Fails when a folder between the spec folder and `rel` (both included) is something the file
 * layer refuses, a link out of the project above all: nothing is read or written through it.
 */
function assertFoldersInside(pfs: ProjectFs, spec: Place, rel: string): void {
  const parts = path.posix.relative(spec.rel, rel).split("/").filter(Boolean);
  let at = spec.rel;
  for (let i = 0; i <= parts.length; i++) {
    if (i > 0) at = path.posix.join(at, parts[i - 1]!);
    const what = probe(pfs, at);
    if (what.kind === "missing") return;
    if (what.kind === "refused") {
      throw new WorkbenchError("UNSAFE_PATH", `The folder ${at || "."} is refused: ${refusalText(what.refusal)} The reduce reads and writes nothing through it.`, { reason: what.refusal.code });
    }
  }
}

/** What the reduce knows before the seat files are read (steps 1–3). */
interface Begun {
  t0: number;
  t1: number;
  options: ReduceOptions;
  pfs: ProjectFs;
  spec: Place;
  fileWarnings: FileWarning[];
  artifactRoot: ArtifactRoot;
  paths: PacketPaths;
  rels: PacketPaths;
  writing: boolean;
  decoder: SeatDecoder;
  config: unknown;
  log: ReturnType<typeof readStateLog>;
  iterations: JsonRecord[];
  events: JsonRecord[];
  relevanceGate: number;
  agreementMin: number;
}

function begin(specFolder: string, options: ReduceOptions): Begun {
  const t0 = performance.now();
  const { pfs, spec } = locateSpec(specFolder, options.fs);
  const fileWarnings: FileWarning[] = [];
  assertFoldersInside(pfs, spec, path.posix.join(spec.rel, "context"));
  const artifactRoot = resolveContextArtifactRoot(pfs, spec);
  const paths = packetPaths(artifactRoot.artifactDir);
  const rels = packetPaths(artifactRoot.artifactRel, path.posix.join);
  assertFoldersInside(pfs, spec, rels.seatDir);
  const writing = options.write !== false && options.readOnly !== true;
  // A reduce killed between its two renames left its commit record: finished before anything is read.
  const packetDir = writing ? pfs.realDirSync(artifactRoot.artifactRel) : null;
  if (packetDir !== null) recoverCommits(packetDir, [path.posix.basename(rels.registryPath), path.posix.basename(rels.dashboardPath)]);
  const decoder = options.decoder ?? "scan";
  const config = readConfig(pfs, rels.configPath, (w) => fileWarnings.push(w));
  const log = readStateLog(pfs, rels.stateLogPath, { readOnly: options.readOnly === true });
  const { iterations, events } = throughIteration(splitRecords(log.records), options.throughIteration);
  // Property reads as the reference does them: a config file holding `null` fails here, as there.
  const configGate = (config as JsonRecord).relevanceGate;
  const configMin = (config as JsonRecord).agreementMin;
  const relevanceGate = isFiniteNumber(configGate) ? configGate : DEFAULT_RELEVANCE_GATE;
  const agreementMin = isFiniteNumber(configMin) ? configMin : DEFAULT_AGREEMENT_MIN;
  const t1 = performance.now();
  return { t0, t1, options, pfs, spec, fileWarnings, artifactRoot, paths, rels, writing, decoder, config, log, iterations, events, relevanceGate, agreementMin };
}

/** The seat files to read: every iteration's, or those up to options.throughIteration. */
function seatIterationsOf(b: Begun): SeatIteration[] {
  const last = b.options.throughIteration;
  const all = listSeatIterations(b.pfs, { abs: b.paths.seatDir, rel: b.rels.seatDir }, b.options.layouts ?? "both");
  return last === undefined ? all : all.filter((it) => it.iteration <= last);
}

/** The registry's buckets, its top-level tail and the dashboard's inputs, from the seats (step 5). */
function compute(b: Begun, seats: SeatCollection) {
  b.fileWarnings.push(...seats.fileWarnings);
  const lineage = lineageOf(b.config, b.events);
  const graph = graphRollupOf(b.events);
  const status = statusOf(b.config, b.iterations, b.events);
  const tail: RegistryTail = {
    sessionId: lineage.sessionId || "",
    lineageMode: lineage.lineageMode,
    generation: lineage.generation,
    status,
    relevanceGate: b.relevanceGate,
    agreementMin: b.agreementMin,
    executorPool: Array.from(seats.allSeatLabels).sort(),
    iterationsCompleted: b.iterations.length,
    seatsByIteration: seats.seatsByIteration,
    graphDecision: graph.graphDecision,
    corruptionWarnings: b.log.corruptionWarnings,
    seatValidationWarnings: seats.validationWarnings,
    stateLogRepair: b.log.repair,
  };
  // Buckets are sorted when first needed: the dashboard only reads the top of one.
  const reg: RegistryBuckets = buildRegistryOf(seats.table, null, { relevanceGate: b.relevanceGate, agreementMin: b.agreementMin }, { lazy: true });
  const dashboard = (): string => {
    const text = renderDashboard({ config: b.config, registry: reg, iterations: b.iterations, lineage, graph, status });
    return text.endsWith("\n") ? text : `${text}\n`;
  };
  const serialize = (sink: (bytes: Buffer, length: number) => void) => writeRegistry(sink, reg, tail);
  return { tail, reg, dashboard, serialize };
}

type Computed = ReturnType<typeof compute>;

/** The output files' places, checked before either temp file is written (an output that is a link makes the reduce fail with neither replaced). */
function outputPaths(b: Begun): { registryPath: string; dashboardPath: string } {
  b.pfs.ensureDirSync(b.artifactRoot.artifactRel);
  return { registryPath: b.pfs.writablePathSync(b.rels.registryPath), dashboardPath: b.pfs.writablePathSync(b.rels.dashboardPath) };
}

function finish(b: Begun, seats: SeatCollection, c: Computed, dashboard: string, t2: number, t3: number, t4: number): ReduceResult {
  const { reg, tail, serialize } = c;
  const { log, paths, pfs } = b;
  const summary: ReduceSummary = {
    registryPath: paths.registryPath,
    dashboardPath: paths.dashboardPath,
    iterationsCompleted: b.iterations.length,
    findings: reg.metrics.findings,
    agreementEligible: reg.metrics.agreementEligible,
    contradictions: reg.metrics.contradictions,
    corruptionCount: log.corruptionWarnings.length,
    seatValidationWarnings: seats.validationWarnings.length,
    stateLogRepaired: log.repair.repaired,
    stateLogDroppedBytes: log.repair.droppedBytes,
    stateSafety: "inline",
    stateLogReading: log.reading,
  };
  return {
    ...paths,
    artifactRoot: b.artifactRoot,
    summary,
    dashboard,
    corruptionWarnings: log.corruptionWarnings,
    seatValidationWarnings: seats.validationWarnings,
    stateLogRepair: log.repair,
    stateLogReading: log.reading,
    fileWarnings: packetWarnings(pfs, b.spec.rel, b.fileWarnings),
    labelFirstSeatFiles: seats.labelFirstFiles,
    usedParseFallback: seats.usedFallback,
    timings: { stateMs: b.t1 - b.t0, seatsMs: t2 - b.t1, registryMs: t3 - t2, writeMs: t4 - t3 },
    registryJson: () => {
      const parts: Buffer[] = [];
      serialize((bytes, length) => parts.push(Buffer.from(bytes.subarray(0, length))));
      return Buffer.concat(parts).toString("utf8");
    },
    registry: () => registryObject(reg, tail),
  };
}

export function reduceContextState(specFolder: string, options: ReduceOptions = {}): ReduceResult {
  const b = begin(specFolder, options);
  const collect = () => collectSeats(b.pfs, seatIterationsOf(b), b.decoder);
  // The collection is only read from here on (buildRegistryOf's relevance rounding writes the
  // same values again), so read-only calls can share one. The fingerprint is taken before the
  // seat folder is listed: a file that lands in between makes the next call read again.
  const seats =
    options.seatMemo && options.readOnly === true
      ? options.seatMemo.get(["seats", b.pfs.root, b.rels.seatDir, options.layouts ?? "both", options.throughIteration ?? "", b.decoder].join("\u0001"), settledFingerprint(b.pfs, b.rels.seatDir), collect)
      : collect();
  const t2 = performance.now();
  const c = compute(b, seats);
  const dashboard = c.dashboard();
  const t3 = performance.now();
  if (b.writing) {
    const { registryPath, dashboardPath } = outputPaths(b);
    const registryWrite = prepareFileAtomic(registryPath, (write) => c.serialize(write));
    let dashboardWrite;
    try {
      dashboardWrite = prepareFileAtomic(dashboardPath, (write) => write(dashboard));
    } catch (error) {
      registryWrite.abort();
      throw error;
    }
    // Both renamed as one (a commit record first): a reduce killed between the two renames
    // is finished by the next one, so the pair is never one file new and one old.
    commitTogether(path.dirname(registryPath), [registryWrite, dashboardWrite]);
  }
  return finish(b, seats, c, dashboard, t2, t3, performance.now());
}

/**
 * reduceContextState for the CLI: the registry's fsync runs on libuv's threadpool while the
 * dashboard is rendered, written and fsynced beside it (the fsyncs were the largest part of
 * the reduce's I/O on the main thread). Same files, same bytes, same durability: each temp
 * file fsynced before the renames, the folder after them (commitTogether). No seat memo: it writes.
 */
export async function reduceContextStateAsync(specFolder: string, options: Omit<ReduceOptions, "seatMemo"> = {}): Promise<ReduceResult> {
  const b = begin(specFolder, options);
  const seats = collectSeats(b.pfs, seatIterationsOf(b), b.decoder);
  const t2 = performance.now();
  const c = compute(b, seats);
  if (!b.writing) {
    const dashboard = c.dashboard();
    const t3 = performance.now();
    return finish(b, seats, c, dashboard, t2, t3, t3);
  }
  const { registryPath, dashboardPath } = outputPaths(b);
  const registryWrite = prepareFileAtomicAsync(registryPath, (write) => c.serialize(write));
  let dashboard = "";
  let dashboardWrite: Promise<PreparedWrite>;
  try {
    dashboard = c.dashboard();
    dashboardWrite = prepareFileAtomicAsync(dashboardPath, (write) => write(dashboard));
  } catch (error) {
    dashboardWrite = Promise.reject(error);
  }
  const t3 = performance.now();
  const writes = await allPrepared([registryWrite, dashboardWrite]);
  commitTogether(path.dirname(registryPath), writes);
  return finish(b, seats, c, dashboard, t2, t3, performance.now());
}

/** The file layer's refusals under the spec folder and the reducer's own warnings, once per file and reason. */
function packetWarnings(pfs: ProjectFs, specRel: string, own: FileWarning[]): FileWarning[] {
  const under = (rel: string) => specRel === "" || rel === specRel || rel.startsWith(`${specRel}/`);
  const out = new Map<string, FileWarning>();
  // The reducer's own word first: it also says what was done without the file.
  for (const w of [...own, ...pfs.skipped.filter((x) => under(x.relPath))]) {
    const key = `${w.code}\u0000${w.relPath}`;
    if (!out.has(key)) out.set(key, w);
  }
  return [...out.values()];
}

/** Records of iterations after `last` dropped; records without a run number stay (they are not tied to one). */
function throughIteration(records: StateRecords, last: number | undefined): StateRecords {
  if (last === undefined) return records;
  const upTo = (r: JsonRecord) => toNumber(r.run, -Infinity) <= last;
  return { iterations: records.iterations.filter(upTo), events: records.events.filter(upTo) };
}

/** The reducer CLI's stdout: the summary as indented JSON and a newline. */
export function summaryText(summary: ReduceSummary): string {
  return `${JSON.stringify(summary, null, 2)}\n`;
}
