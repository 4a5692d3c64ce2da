/**
 * A PolicyDecision as rows of "metric against limit" for the task page: the ten hard metrics,
 * the two child counts and the transcript growth since the last checkpoint. Each row's state
 * comes from the evaluator's own comparisons (limit-rules.ts), so a row never shows a limit as
 * fine when the decision stopped on it, or the other way round.
 */
import { PyFloat } from "../memory/canonical-json";
import { HARD_METRICS } from "./evaluate-v1";
import { CHILD_LIMITS, checkpointDue, childLimitBlocksSpawn, childLimitExceeded, hardLimitReached, transcriptGrowth } from "./limit-rules";
import type { LimitName } from "./schemas";

/**
 * under: nothing happens yet; reached: a hard limit stops the task; spawn_blocked: no child may
 * be spawned (a child count is at its limit); exceeded: a child count is past its limit and
 * stops the task; checkpoint_due: the transcript grew enough to require a checkpoint.
 */
export type MetricRowState = "under" | "reached" | "spawn_blocked" | "exceeded" | "checkpoint_due";

export interface MetricRow {
  /** An observed metric, or `transcript_growth` (transcript_bytes - last_checkpoint_transcript_bytes). */
  metric: string;
  limit: LimitName;
  observed: number | null;
  max: number | null;
  state: MetricRowState;
  /** The evaluator's rule for this row, in words. */
  rule: string;
  /** True once the row's rule fires (any state but under). */
  reached: boolean;
}

const plain = (v: unknown): number | null => (typeof v === "number" ? v : v instanceof PyFloat ? v.value : null);

function row(metric: string, limit: LimitName, observed: number | null, max: number | null, state: MetricRowState, rule: string): MetricRow {
  return { metric, limit, observed, max, state, rule, reached: state !== "under" };
}

export function metricRows(decision: { observed_metrics: Record<string, unknown>; effective_limits: Record<string, number> }): MetricRow[] {
  const observed = (m: string) => plain(decision.observed_metrics[m]);
  const limit = (l: LimitName) => plain(decision.effective_limits[l]);
  const known = (o: number | null, m: number | null): o is number => o !== null && m !== null;
  const rows: MetricRow[] = HARD_METRICS.map(([metric, name]) => {
    const o = observed(metric);
    const m = limit(name);
    return row(metric, name, o, m, known(o, m) && hardLimitReached(o, m!) ? "reached" : "under", "stops at ≥ limit");
  });
  for (const [metric, name] of CHILD_LIMITS) {
    const o = observed(metric);
    const m = limit(name);
    const state = !known(o, m) ? "under" : childLimitExceeded(o, m!) ? "exceeded" : childLimitBlocksSpawn(o, m!) ? "spawn_blocked" : "under";
    rows.push(row(metric, name, o, m, state, "no spawning at ≥ limit; stops at > limit"));
  }
  const bytes = observed("transcript_bytes");
  const last = observed("last_checkpoint_transcript_bytes");
  const growth = bytes !== null && last !== null ? transcriptGrowth(bytes, last) : null;
  const m = limit("checkpoint_transcript_bytes");
  rows.push(row("transcript_growth", "checkpoint_transcript_bytes", growth, m, known(growth, m) && checkpointDue(growth, m!) ? "checkpoint_due" : "under", "checkpoint at ≥ limit (when nothing stops)"));
  return rows;
}
