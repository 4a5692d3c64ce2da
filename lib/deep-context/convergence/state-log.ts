/**
 * Reads deep-context-state.jsonl (FORMATS.md 1.3) into typed config, iteration and event
 * records for the loop replay and the convergence snapshots. Unknown fields are kept; records
 * that fail their schema become warnings with their line number. `progress` records are ignored.
 */
import { z } from "zod";
import { formatIssues, readJsonlLines, type JsonlWarning } from "./jsonl-lines";

const num = z.number();
const str = z.string();
/** An iteration number: an integer, or a string of digits (some hosts template numbers as strings). */
const runNumber = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]);

export const contextConfigRecordSchema = z
  .object({
    type: z.literal("config").describe('always "config"; the first line of the log'),
    scope: str.optional().describe("what the loop gathers context for"),
    loopType: str.optional().describe('"context"'),
    maxIterations: num.optional().describe("iteration cap; the host stops with maxIterationsReached at this run"),
    convergenceThreshold: num.optional().describe("host saturation floor for newAgreementEligible / findingsCount"),
    stuckThreshold: num.optional().describe("consecutive no-new-agreement sweeps before stuckRecovery (default 2)"),
    relevanceGate: num.optional().describe("minimum relevance kept by the merge (default 0.55)"),
    agreementMin: num.optional().describe("distinct executors for agreement-eligibility (default 2)"),
    antiConvergence: z
      .object({ minIterations: num.optional().describe("K consecutive low-progress iterations for saturation (default 2)") })
      .loose()
      .optional()
      .describe("anti-convergence settings; only minIterations is read"),
    fanout: z
      .object({
        mode: str.optional().describe('"by-model-shared-scope"'),
        concurrency: num.optional().describe("max parallel seats"),
      })
      .loose()
      .optional()
      .describe("pool mode and concurrency"),
    createdAt: str.optional().describe("ISO-8601"),
    specFolder: str.optional().describe("spec folder the packet belongs to"),
    sessionId: str.optional().describe("session id when the host writes it on the config line"),
  })
  .loose()
  .describe("config record (JSONL line 1)");

export const contextIterationRecordSchema = z
  .object({
    type: z.literal("iteration").describe('always "iteration"'),
    run: runNumber.describe("1-based iteration number"),
    mode: str.optional().describe('"context"'),
    status: str.optional().describe('"evidence" or "error"'),
    focus: str.optional().describe("the shared focus (slice label) every seat swept this iteration"),
    slices: z.array(str).optional().describe("focus slice labels when the host lists them (not in the reference format)"),
    findingsCount: num.optional().describe("merged findings this iteration"),
    newAgreementEligible: num.optional().describe("agreement-eligible findings new this iteration"),
    agreementEligible: num.optional().describe("cumulative agreement-eligible findings"),
    sliceCoverage: num.optional().describe("host-reported signal"),
    reuseCatalogCoverage: num.optional().describe("host-reported signal"),
    agreementRate: num.optional().describe("host-reported signal"),
    relevanceFloor: num.optional().describe("host-reported signal"),
    dependencyCompleteness: num.optional().describe("host-reported signal"),
    contradictions: num.optional().describe("contradictions surfaced this iteration"),
    seatsSucceeded: num.optional().describe("number of seats whose output parsed"),
    durationMs: num.optional().describe("sweep duration"),
    timestamp: str.optional().describe("ISO-8601"),
    sessionId: str.optional().describe("lineage session id"),
    generation: num.optional().describe("lineage generation"),
  })
  .loose()
  .describe("iteration record");

/** A graph_convergence blocker: a bare type name (real logs) or the runtime's blocker object. */
export const blockerEntrySchema = z
  .union([
    str.describe("blocker type name, e.g. low_cross_executor_agreement"),
    z
      .object({
        type: str.describe("blocker type"),
        severity: str.optional().describe('"blocking" or "warning"'),
        count: num.optional().describe("how many (uncovered slices, contradictions) or 1"),
        description: str.optional().describe("human text"),
      })
      .loose(),
  ])
  .describe("one blocker");

export const contextEventRecordSchema = z
  .object({
    type: z.literal("event").describe('always "event"'),
    event: str.describe("event name: graph_convergence, sweep_settled, blocked_stop, stuckRecovery, userPaused, loop_stopped, synthesis_complete, ..."),
    mode: str.optional().describe('"context"'),
    run: runNumber.optional().describe("iteration the event belongs to"),
    decision: z.enum(["CONTINUE", "STOP_ALLOWED", "STOP_BLOCKED"]).nullable().optional().describe("graph_convergence: the graph decision"),
    signals: z.record(str, z.unknown()).nullable().optional().describe("graph_convergence / blocked_stop: the five signals + score (may be partial)"),
    blockers: z.array(blockerEntrySchema).optional().describe("graph_convergence: blockers"),
    blockedBy: z.array(blockerEntrySchema).optional().describe("blocked_stop: the blockers that vetoed STOP"),
    recoveryStrategy: str.optional().describe("blocked_stop: one-line recovery hint"),
    seatsSucceeded: z.array(str).optional().describe("sweep_settled: labels of seats that returned findings"),
    seatsFailed: z.array(str).optional().describe("sweep_settled: labels of seats that failed"),
    focusSliceCount: z.union([num, str]).optional().describe("sweep_settled: slices in the shared focus"),
    stopReason: str.optional().describe("loop_stopped / stuckRecovery / userPaused / synthesis_complete: stop reason enum"),
    openBlockers: z.array(blockerEntrySchema).optional().describe("loop_stopped (real-only): blockers still open at stop"),
    sessionId: str.optional().describe("lineage session id"),
    timestamp: str.optional().describe("ISO-8601"),
  })
  .loose()
  .describe("event record");

/** deep-context-config.json: only the host-loop settings are read here (FORMATS.md 1.2). */
export const contextConfigFileSchema = z
  .object({
    maxIterations: num.optional().describe("iteration cap (default 8)"),
    convergenceThreshold: num.optional().describe("host saturation floor (default 0.10)"),
    stuckThreshold: num.optional().describe("consecutive no-new-agreement sweeps before stuckRecovery (default 2)"),
    relevanceGate: num.optional().describe("merge relevance gate (default 0.55)"),
    agreementMin: num.optional().describe("distinct executors for agreement-eligibility (default 2)"),
    antiConvergence: z
      .object({ minIterations: num.optional().describe("K consecutive low-progress iterations for saturation (default 2)") })
      .loose()
      .optional()
      .describe("anti-convergence settings"),
    status: str.optional().describe("initialized | running | complete"),
  })
  .loose()
  .describe("deep-context-config.json");

export type ContextConfigRecord = z.output<typeof contextConfigRecordSchema>;
export type ContextIterationRecord = z.output<typeof contextIterationRecordSchema>;
export type ContextEventRecord = z.output<typeof contextEventRecordSchema>;
export type BlockerEntry = z.output<typeof blockerEntrySchema>;

export interface ContextStateLog {
  config: ContextConfigRecord | null;
  /** Iteration records in file order. */
  iterations: ContextIterationRecord[];
  /** Event records in file order. */
  events: ContextEventRecord[];
  warnings: JsonlWarning[];
}

/** Parses the text of deep-context-state.jsonl. */
export function parseContextStateLog(text: string): ContextStateLog {
  const { lines, warnings } = readJsonlLines(text);
  const out: ContextStateLog = { config: null, iterations: [], events: [], warnings: [...warnings] };
  for (const { line, value } of lines) {
    if (value.type === "progress" || value.event === "progress_record") continue;
    if (value.type === "config") {
      const parsed = contextConfigRecordSchema.safeParse(value);
      if (!parsed.success) out.warnings.push({ line, error: `config record: ${formatIssues(parsed.error.issues)}` });
      else if (!out.config) out.config = parsed.data;
    } else if (value.type === "iteration") {
      const parsed = contextIterationRecordSchema.safeParse(value);
      if (!parsed.success) out.warnings.push({ line, error: `iteration record: ${formatIssues(parsed.error.issues)}` });
      else out.iterations.push(parsed.data);
    } else if (value.type === "event") {
      const parsed = contextEventRecordSchema.safeParse(value);
      if (!parsed.success) out.warnings.push({ line, error: `event record: ${formatIssues(parsed.error.issues)}` });
      else out.events.push(parsed.data);
    } else {
      out.warnings.push({ line, error: `unknown record type ${JSON.stringify(value.type ?? null)}` });
    }
  }
  return out;
}

/** The log as it stood after iteration `last`: later iteration and event records dropped (events without a run stay). */
export function logThroughIteration(log: ContextStateLog, last: number): ContextStateLog {
  return {
    ...log,
    iterations: log.iterations.filter((it) => it.run <= last),
    events: log.events.filter((e) => e.run === undefined || e.run <= last),
  };
}

/** A blocker entry as `{type, severity?, count?}`. */
export function normalizeBlocker(b: BlockerEntry): { type: string; severity?: string; count?: number } {
  if (typeof b === "string") return { type: b };
  const out: { type: string; severity?: string; count?: number } = { type: b.type };
  if (b.severity !== undefined) out.severity = b.severity;
  if (b.count !== undefined) out.count = b.count;
  return out;
}

/** Numeric fields of a signals object (drops non-numbers). */
export function numericSignals(signals: Record<string, unknown> | null | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  if (!signals) return out;
  for (const [k, v] of Object.entries(signals)) if (typeof v === "number" && Number.isFinite(v)) out[k] = v;
  return out;
}
