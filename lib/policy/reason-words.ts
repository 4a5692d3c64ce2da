/**
 * Each reason token of a PolicyDecision or GoalDecision in plain words, for the task page and
 * the CLI's human output. The tokens themselves stay the output (they are the harness's
 * contract); these sentences only explain them. An unknown token is returned as it is.
 */
import { CONTEXT_METRICS } from "./evaluate-v1";

export interface ReasonContext {
  /** The GoalDecision's totals, to say what a goal limit met. */
  totals?: Record<string, unknown>;
  /** The goal policy's limits. */
  goalLimits?: Record<string, unknown>;
  /** Effective limits, to name a slice boundary's cap. */
  limits?: Record<string, unknown>;
}

const SLICE_CAP: Record<string, string> = { cycle: "max_cycles", tool_calls: "max_tool_calls", elapsed_seconds: "max_elapsed_seconds", children_spawned: "max_children_per_parent" };

const show = (v: unknown): string => (v === null ? "unknown" : v === undefined ? "?" : typeof v === "object" && v !== null && "value" in v ? String((v as { value: unknown }).value) : String(v));

function limitReached(metric: string, value: string, limit: string, max: string): string {
  if ((CONTEXT_METRICS as readonly string[]).includes(metric)) return `The active context is too large: ${metric} is ${value}, at or over ${limit} (${max}). Compact it and measure again before the next action.`;
  if (metric === "same_failure_retries") return `The same failure was retried ${value} times, reaching ${limit} (${max}). This action stops; a diagnose or wait action may continue.`;
  if (metric === "no_evidence_cycles") return `${value} cycles passed without new evidence, reaching ${limit} (${max}). This action stops; a diagnose or wait action may continue.`;
  return `${metric} is ${value}, at or over ${limit} (${max}).`;
}

/** One reason in words. */
export function reasonInWords(reason: string, ctx: ReasonContext = {}): string {
  let m: RegExpExecArray | null;
  if ((m = /^task_status:(.+)$/.exec(reason))) {
    const local = m[1] === "error" || m[1] === "timed_out" ? " A diagnose or wait action may continue from it." : "";
    return `The task's status is ${m[1]}; only a running task continues.${local}`;
  }
  if ((m = /^human_gate:(.+):(decline|revise)$/.exec(reason))) {
    return m[2] === "decline" ? `A human declined gate ${m[1]} (its latest signed decision).` : `A human sent gate ${m[1]} back for revision (its latest signed decision).`;
  }
  if ((m = /^limit_reached:([a-z_]+)=([^:]+):([a-z_]+)=(.+)$/.exec(reason))) return limitReached(m[1]!, m[2]!, m[3]!, m[4]!);
  if ((m = /^limit_exceeded:active_children=(\d+):max_concurrency=(\d+)$/.exec(reason))) return `${m[1]} children run at once, more than max_concurrency (${m[2]}).`;
  if ((m = /^limit_exceeded:children_spawned=(\d+):max_children_per_parent=(\d+)$/.exec(reason))) return `${m[1]} children were spawned, more than max_children_per_parent (${m[2]}).`;
  if ((m = /^checkpoint_required:transcript_growth=(-?\d+):checkpoint_transcript_bytes=(\d+)$/.exec(reason))) {
    return `The transcript grew ${m[1]} bytes since the last checkpoint, reaching checkpoint_transcript_bytes (${m[2]}): write a checkpoint.`;
  }
  if (reason === "context_compaction_required") return "Compaction pending: the host must compact the active context and measure it again before executing; the goal itself goes on.";
  if (reason === "human_authorization_required") return "The host marked this goal as needing a human (requires_human). A signed approval does not clear it; the host does.";
  if ((m = /^goal_limit:([a-z_]+):unknown_or_reached$/.exec(reason))) {
    const total = ctx.totals?.[m[1]!];
    const limit = ctx.goalLimits?.[m[1]!] === undefined ? "its goal limit" : `its goal limit (${show(ctx.goalLimits[m[1]!])})`;
    if (total === null) return `The goal's ${m[1]} total is unknown (null), so ${limit} cannot be checked: the goal stops.`;
    return `The goal's ${m[1]} total${total === undefined ? "" : ` (${show(total)})`} reached ${limit}: the goal stops.`;
  }
  if (reason === "completion_missing_acceptance_or_work_remains") return "The task says completed, but it cites no evidence or a next step remains: the goal is not done.";
  if ((m = /^slice_limit:([a-z_]+)$/.exec(reason))) {
    const cap = SLICE_CAP[m[1]!] ?? "its limit";
    return `Slice boundary: ${m[1]} reached ${cap}${ctx.limits?.[cap] !== undefined ? ` (${show(ctx.limits[cap])})` : ""}. This slice ends; its counts carry over into the goal totals.`;
  }
  if (reason === "slice_needs_evidence_next_step_or_children_completion") return "The slice cannot advance on its own: that needs evidence not yet accepted, a non-empty next step, and no active child.";
  if (reason === "concurrency_exceeded") return "More children run at once than max_concurrency allows.";
  if ((m = /^evaluation_error:([\s\S]*)$/.exec(reason))) {
    const hint = m[1] === "checkpoint and policy versions must match" ? " A GoalCheckpoint v2 needs a goal policy (v2), and a TaskCheckpoint v1 a policy v1." : "";
    return `The documents could not be evaluated: ${m[1]}. This is a fail-closed stop.${hint}`;
  }
  return reason;
}
