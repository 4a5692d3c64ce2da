/**
 * Reads the sibling loops' state logs (deep-research-state.jsonl, deep-review-state.jsonl) into
 * config, iteration and event records (FORMATS.md 1.12). Fields are optional and unknown fields
 * are kept; records failing their schema become warnings with their line number.
 */
import { z } from "zod";
import { formatIssues, readJsonlLines, type JsonlWarning } from "./jsonl-lines";

const str = z.string();
const num = z.number();
const runNumber = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]);

export const siblingConfigRecordSchema = z
  .object({
    type: z.literal("config").describe('always "config"'),
    loopType: str.optional().describe('"research" or "review"'),
    topic: str.optional().describe("research topic"),
    maxIterations: num.optional().describe("iteration cap"),
    convergenceThreshold: num.optional().describe("newInfoRatio floor (research) / severity-weighted ratio floor (review)"),
    stuckThreshold: num.optional().describe("consecutive no-progress iterations before stuck recovery"),
    noProgressThreshold: num.optional().describe("ratio at or below which an iteration counts as no progress"),
    rollingStopThreshold: num.optional().describe("review: rolling-average STOP threshold (default 0.08)"),
    dimensions: z.array(str).optional().describe("review: the configured review dimensions"),
    sessionId: str.optional().describe("lineage session id"),
  })
  .loose()
  .describe("sibling config record");

export const researchIterationSchema = z
  .object({
    type: z.literal("iteration").describe('always "iteration"'),
    run: runNumber.describe("1-based iteration number"),
    mode: str.optional().describe('"research"'),
    status: str.optional().describe("complete | timeout | error | stuck | insight | thought (real logs: evidence)"),
    focus: str.optional().describe("what the iteration investigated"),
    findingsCount: num.optional().describe("findings this iteration"),
    newInfoRatio: num.optional().describe("0..1 novelty of the iteration"),
    noveltyJustification: str.optional().describe("why that ratio"),
    keyQuestions: z.array(str).optional().describe("key questions in play this iteration"),
    answeredQuestions: z.array(str).optional().describe("key questions answered with evidence"),
    ruledOut: z.array(z.unknown()).optional().describe("ruled-out approaches {approach,reason,evidence}"),
    graphEvents: z.array(z.unknown()).optional().describe("coverage-graph events {type,id,label,from?,to?,relation?}"),
    convergenceSignals: z
      .object({
        rollingAvg: num.nullable().optional().describe("recorded rolling average"),
        madScore: num.nullable().optional().describe("recorded MAD noise floor"),
        entropyCoverage: num.nullable().optional().describe("recorded question coverage"),
        compositeStop: num.nullable().optional().describe("recorded stop score"),
      })
      .loose()
      .optional()
      .describe("signals the host recorded, when present"),
  })
  .loose()
  .describe("deep-research iteration record");

const severityCounts = z
  .object({
    P0: num.optional().describe("blocker findings"),
    P1: num.optional().describe("required-fix findings"),
    P2: num.optional().describe("suggestion findings"),
  })
  .loose()
  .describe("counts by severity");

export const reviewIterationSchema = z
  .object({
    type: z.literal("iteration").describe('always "iteration"'),
    run: runNumber.describe("1-based iteration number"),
    mode: str.optional().describe('"review"'),
    status: str.optional().describe("complete | stuck | insight | thought | error ..."),
    focus: str.optional().describe("what the iteration reviewed"),
    dimensions: z.array(str).optional().describe("review dimensions covered this iteration"),
    filesReviewed: z.array(str).optional().describe("files read"),
    findingsSummary: severityCounts.optional().describe("active findings by severity after this iteration"),
    findingsNew: severityCounts.optional().describe("new findings by severity this iteration"),
    findingDetails: z.array(z.unknown()).optional().describe("finding records"),
    newFindingsRatio: num.optional().describe("severity-weighted new-findings ratio"),
  })
  .loose()
  .describe("deep-review iteration record");

export const siblingEventSchema = z
  .object({
    type: z.literal("event").describe('always "event"'),
    event: str.describe("event name"),
    run: runNumber.optional().describe("iteration the event belongs to"),
    runs: z.array(runNumber).optional().describe("iterations the event covers (e.g. executor_fallback)"),
    stopReason: str.optional().describe("stop reason enum on stop / recovery events"),
    blockedBy: z.array(z.unknown()).optional().describe("blocked_stop: gate names"),
    recoveryStrategy: str.optional().describe("blocked_stop / stuckRecovery: next-focus hint"),
    answeredCount: num.optional().describe("synthesis_complete / loop_stopped: answered questions"),
    totalQuestions: num.optional().describe("synthesis_complete / loop_stopped: total questions"),
    totalIterations: num.optional().describe("synthesis_complete: iterations run"),
  })
  .loose()
  .describe("sibling event record");

export type SiblingConfigRecord = z.output<typeof siblingConfigRecordSchema>;
export type ResearchIterationRecord = z.output<typeof researchIterationSchema>;
export type ReviewIterationRecord = z.output<typeof reviewIterationSchema>;
export type SiblingEventRecord = z.output<typeof siblingEventSchema>;

export interface SiblingStateLog<I> {
  config: SiblingConfigRecord | null;
  iterations: I[];
  events: SiblingEventRecord[];
  warnings: JsonlWarning[];
}

function parseSibling<S extends z.ZodType>(text: string, iterationSchema: S): SiblingStateLog<z.output<S>> {
  const { lines, warnings } = readJsonlLines(text);
  const out: SiblingStateLog<z.output<S>> = { config: null, iterations: [], events: [], warnings: [...warnings] };
  for (const { line, value } of lines) {
    if (value.type === "progress" || value.event === "progress_record") continue;
    if (value.type === "config") {
      const r = siblingConfigRecordSchema.safeParse(value);
      if (!r.success) out.warnings.push({ line, error: `config record: ${formatIssues(r.error.issues)}` });
      else if (!out.config) out.config = r.data;
    } else if (value.type === "iteration") {
      const r = iterationSchema.safeParse(value);
      if (!r.success) out.warnings.push({ line, error: `iteration record: ${formatIssues(r.error.issues)}` });
      else out.iterations.push(r.data);
    } else if (value.type === "event") {
      const r = siblingEventSchema.safeParse(value);
      if (!r.success) out.warnings.push({ line, error: `event record: ${formatIssues(r.error.issues)}` });
      else out.events.push(r.data);
    } else {
      out.warnings.push({ line, error: `unknown record type ${JSON.stringify(value.type ?? null)}` });
    }
  }
  return out;
}

export function parseResearchStateLog(text: string): SiblingStateLog<ResearchIterationRecord> {
  return parseSibling(text, researchIterationSchema);
}

export function parseReviewStateLog(text: string): SiblingStateLog<ReviewIterationRecord> {
  return parseSibling(text, reviewIterationSchema);
}

/** Event names per run; events carrying `runs: [...]` count for each listed run. Events without a run are returned apart. */
export function eventsByRun(events: readonly SiblingEventRecord[]): { byRun: Map<number, string[]>; unattached: string[] } {
  const byRun = new Map<number, string[]>();
  const unattached: string[] = [];
  for (const e of events) {
    const runs = e.run !== undefined ? [e.run] : (e.runs ?? []);
    if (runs.length === 0) unattached.push(e.event);
    for (const r of runs) {
      // Appended in place: a log can hold hundreds of thousands of events of one run.
      const list = byRun.get(r);
      if (list) list.push(e.event);
      else byRun.set(r, [e.event]);
    }
  }
  return { byRun, unattached };
}

/** The last stop / synthesis event's stop reason, with the totals it carries. */
export function recordedStop(events: readonly SiblingEventRecord[]): { stopReason: string | null; run: number | null; totalIterations: number | null; answeredCount: number | null; totalQuestions: number | null } {
  const stopEv = [...events].reverse().find((e) => (e.event === "loop_stopped" || e.event === "synthesis_complete") && typeof e.stopReason === "string");
  const synth = [...events].reverse().find((e) => e.event === "synthesis_complete");
  const loopStopped = [...events].reverse().find((e) => e.event === "loop_stopped");
  return {
    stopReason: stopEv?.stopReason ?? null,
    run: stopEv?.run ?? loopStopped?.run ?? null,
    totalIterations: synth?.totalIterations ?? null,
    answeredCount: stopEv?.answeredCount ?? synth?.answeredCount ?? null,
    totalQuestions: stopEv?.totalQuestions ?? synth?.totalQuestions ?? null,
  };
}
