/**
 * What the reducer takes from the state log and the config besides findings: iteration and
 * event records, lineage, run status and the latest graph-convergence verdict (the
 * reference's filterCompletionBearingRecords, buildLineageState, deriveStatus and
 * buildGraphConvergenceRollup). Records and config are untrusted JSON, read field by field
 * with the reference's guards.
 */
import { isFiniteNumber, toNumber } from "../text";

export type JsonRecord = Record<string, unknown>;

/** `type: "progress"` or `event: "progress_record"`: liveness only, never completion. */
export function isProgressRecord(record: unknown): boolean {
  return Boolean(record && typeof record === "object" && ((record as JsonRecord).type === "progress" || (record as JsonRecord).event === "progress_record"));
}

export interface StateRecords {
  /** `type: "iteration"` records sorted by `run` (stable; non-numeric runs count as 0). */
  iterations: JsonRecord[];
  /** `type: "event"` records in log order. */
  events: JsonRecord[];
}

export function splitRecords(records: unknown[]): StateRecords {
  const bearing = records.filter((r) => !isProgressRecord(r)) as (JsonRecord | null)[];
  const iterations = bearing.filter((r): r is JsonRecord => Boolean(r && r.type === "iteration")).sort((a, b) => toNumber(a.run, 0) - toNumber(b.run, 0));
  const events = bearing.filter((r): r is JsonRecord => Boolean(r && r.type === "event"));
  return { iterations, events };
}

function lastEvent(events: JsonRecord[], test: (e: JsonRecord) => boolean): JsonRecord | undefined {
  for (let i = events.length - 1; i >= 0; i--) if (test(events[i]!)) return events[i];
  return undefined;
}

/** `config.lineage` when it is an object, else `{}` (any config value: the file is untrusted JSON). */
function configField(config: unknown, key: string): unknown {
  return config ? (config as JsonRecord)[key] : undefined;
}

export interface Lineage {
  sessionId: string | null;
  lineageMode: string;
  generation: number;
}

/** The latest resumed/restarted event wins over config.lineage; defaults: no session, "new", generation 1. */
export function lineageOf(config: unknown, events: JsonRecord[]): Lineage {
  const raw = configField(config, "lineage");
  const fromConfig: JsonRecord = raw && typeof raw === "object" ? (raw as JsonRecord) : {};
  const latest = lastEvent(events, (e) => e.event === "resumed" || e.event === "restarted");
  return {
    sessionId: (latest && typeof latest.sessionId === "string" && latest.sessionId) || (typeof fromConfig.sessionId === "string" ? fromConfig.sessionId : null),
    lineageMode: (latest && typeof latest.lineageMode === "string" && latest.lineageMode) || (typeof fromConfig.lineageMode === "string" ? fromConfig.lineageMode : "new"),
    generation: isFiniteNumber(latest?.generation) ? latest.generation : isFiniteNumber(fromConfig.generation) ? fromConfig.generation : 1,
  };
}

/** COMPLETE after synthesis_complete or a complete(d) config; ITERATING once running or an iteration exists; else the config status upper-cased. */
export function statusOf(config: unknown, iterations: JsonRecord[], events: JsonRecord[]): string {
  if (events.some((e) => e.event === "synthesis_complete")) return "COMPLETE";
  const raw = String(configField(config, "status") || "initialized").toLowerCase();
  if (raw === "complete" || raw === "completed") return "COMPLETE";
  if (raw === "running" || iterations.length > 0) return "ITERATING";
  return raw.toUpperCase();
}

export interface GraphRollup {
  graphDecision: string | null;
  graphSignals: JsonRecord;
  graphBlockers: unknown[];
}

/** The latest graph_convergence event: its decision, signals and blockers. */
export function graphRollupOf(events: JsonRecord[]): GraphRollup {
  const latest = lastEvent(events, (e) => e.event === "graph_convergence");
  const signals = latest?.signals;
  return {
    graphDecision: latest && typeof latest.decision === "string" ? latest.decision : null,
    graphSignals: signals && typeof signals === "object" ? (signals as JsonRecord) : {},
    graphBlockers: latest && Array.isArray(latest.blockers) ? latest.blockers : [],
  };
}
