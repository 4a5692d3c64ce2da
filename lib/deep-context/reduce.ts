/**
 * The deep-context reducer: a packet's state log + per-seat findings → findings-registry.json
 * and deep-context-dashboard.md, with the reference reduce-state.cjs@21d0218's outputs
 * (same keys, key order, values and text). Steps, in the reference's order:
 *
 * 1. packet folder: resolveArtifactRoot(path.resolve(specFolder), 'context');
 * 2. config (deep-context-config.json only; `{}` when missing or unparsable);
 * 3. state log: torn-tail repair (truncates the file), then parse with corruption warnings;
 * 4. seats: every seat file of every iteration, validated and merged into units;
 * 5. registry (gate, buckets, contradictions, order, metrics) and lineage/status/graph;
 * 6. atomic writes of the registry and the dashboard.
 *
 * Idempotent: the same packet gives byte-identical files.
 */
import fs from "node:fs";
import path from "node:path";
import { type ArtifactRoot, resolveContextArtifactRoot } from "./artifact-root";
import { renderDashboard } from "./dashboard";
import { readStateLog } from "./jsonl";
import type { Memo } from "./memo";
import { type PacketPaths, type SeatLayouts, listSeatIterations, packetPaths, readConfig } from "./packet";
import { settledFingerprint } from "./run-cache";
import { DEFAULT_AGREEMENT_MIN, DEFAULT_RELEVANCE_GATE, type RegistryBuckets, buildRegistryOf } from "./registry";
import { type SeatDecoder, collectSeats } from "./seats";
import { ByteWriter, type RegistryTail, registryObject, writeRegistryJson } from "./serialize";
import { type JsonRecord, type StateRecords, graphRollupOf, lineageOf, splitRecords, statusOf } from "./state";
import { isFiniteNumber, toNumber } from "./text";
import type { CorruptionWarning, FindingsRegistry, ReduceSummary, SeatValidationWarning, StateLogRepair } from "./types";
import { prepareFileAtomic, syncDir } from "../core/fs/atomic-write";

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

export function reduceContextState(specFolder: string, options: ReduceOptions = {}): ReduceResult {
  const t0 = performance.now();
  const artifactRoot = resolveContextArtifactRoot(path.resolve(specFolder));
  const paths = packetPaths(artifactRoot.artifactDir);
  const writing = options.write !== false && options.readOnly !== true;
  const decoder = options.decoder ?? "scan";
  const config = readConfig(paths.configPath);
  const log = readStateLog(paths.stateLogPath, { readOnly: options.readOnly === true });
  const { iterations, events } = throughIteration(splitRecords(log.records), options.throughIteration);
  // Property reads as the reference does them: a config file holding `null` fails here, as there.
  const configGate = (config as JsonRecord).relevanceGate;
  const configMin = (config as JsonRecord).agreementMin;
  const relevanceGate = isFiniteNumber(configGate) ? configGate : DEFAULT_RELEVANCE_GATE;
  const agreementMin = isFiniteNumber(configMin) ? configMin : DEFAULT_AGREEMENT_MIN;
  const t1 = performance.now();

  const layouts = options.layouts ?? "both";
  const last = options.throughIteration;
  const collect = () => {
    const seatIterations = listSeatIterations(paths.seatDir, layouts);
    return collectSeats(last === undefined ? seatIterations : seatIterations.filter((it) => it.iteration <= last), decoder);
  };
  // The collection is only read from here on (buildRegistryOf's relevance rounding writes the
  // same values again), so read-only calls can share one. The fingerprint is taken before the
  // seat folder is listed: a file that lands in between makes the next call read again.
  const seats =
    options.seatMemo && options.readOnly === true
      ? options.seatMemo.get(["seats", paths.seatDir, layouts, last ?? "", decoder].join("\u0001"), settledFingerprint(paths.seatDir), collect)
      : collect();
  const t2 = performance.now();

  const lineage = lineageOf(config, events);
  const graph = graphRollupOf(events);
  const status = statusOf(config, iterations, events);
  const tail: RegistryTail = {
    sessionId: lineage.sessionId || "",
    lineageMode: lineage.lineageMode,
    generation: lineage.generation,
    status,
    relevanceGate,
    agreementMin,
    executorPool: Array.from(seats.allSeatLabels).sort(),
    iterationsCompleted: iterations.length,
    seatsByIteration: seats.seatsByIteration,
    graphDecision: graph.graphDecision,
    corruptionWarnings: log.corruptionWarnings,
    seatValidationWarnings: seats.validationWarnings,
    stateLogRepair: log.repair,
  };
  // Buckets are sorted when first needed: the dashboard only reads the top of one.
  const reg: RegistryBuckets = buildRegistryOf(seats.table, null, { relevanceGate, agreementMin }, { lazy: true });
  let dashboard = renderDashboard({ config, registry: reg, iterations, lineage, graph, status });
  if (!dashboard.endsWith("\n")) dashboard += "\n";
  const t3 = performance.now();

  const serialize = (sink: (bytes: Buffer, length: number) => void) => {
    const w = new ByteWriter(sink);
    writeRegistryJson(w, reg, tail);
    w.flush();
  };
  if (writing) {
    fs.mkdirSync(path.dirname(paths.registryPath), { recursive: true });
    // Registry first, then dashboard, each atomic (temp, fsync, rename); the folder is
    // fsynced once, after the second rename (or when the dashboard fails).
    prepareFileAtomic(paths.registryPath, (write) => serialize(write)).commit({ syncDir: false });
    try {
      prepareFileAtomic(paths.dashboardPath, (write) => write(dashboard)).commit();
    } catch (error) {
      syncDir(path.dirname(paths.registryPath));
      throw error;
    }
  }
  const t4 = performance.now();

  const summary: ReduceSummary = {
    registryPath: paths.registryPath,
    dashboardPath: paths.dashboardPath,
    iterationsCompleted: iterations.length,
    findings: reg.metrics.findings,
    agreementEligible: reg.metrics.agreementEligible,
    contradictions: reg.metrics.contradictions,
    corruptionCount: log.corruptionWarnings.length,
    seatValidationWarnings: seats.validationWarnings.length,
    stateLogRepaired: log.repair.repaired,
    stateLogDroppedBytes: log.repair.droppedBytes,
    stateSafety: "inline",
  };
  return {
    ...paths,
    artifactRoot,
    summary,
    dashboard,
    corruptionWarnings: log.corruptionWarnings,
    seatValidationWarnings: seats.validationWarnings,
    stateLogRepair: log.repair,
    labelFirstSeatFiles: seats.labelFirstFiles,
    usedParseFallback: seats.usedFallback,
    timings: { stateMs: t1 - t0, seatsMs: t2 - t1, registryMs: t3 - t2, writeMs: t4 - t3 },
    registryJson: () => {
      const parts: Buffer[] = [];
      serialize((bytes, length) => parts.push(Buffer.from(bytes.subarray(0, length))));
      return Buffer.concat(parts).toString("utf8");
    },
    registry: () => registryObject(reg, tail),
  };
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
