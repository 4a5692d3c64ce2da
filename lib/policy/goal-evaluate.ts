/**
 * `evaluate_goal` of the agent-collab harness 0.5.1 (GOAL-POLICY §6): a GoalCheckpoint under a
 * GoalPolicy gives a GoalDecision, the v1 decision plus `scope` (what it stops or checkpoints:
 * the action, the slice or the goal) and `auto_continue` (a finished slice may advance without
 * a human).
 *
 * In short: signatures and overrides are checked on the task as stored; the slice counters are
 * zeroed and the base (v1) evaluation runs on that copy, so they become slice boundaries instead
 * of hard stops; then the goal layer adjusts decision and scope in a fixed order (context
 * compaction, a human's required action, goal budgets, completion without acceptance, slice
 * boundaries, concurrency), and spawning keeps a slot for an independent reviewer.
 */
import { canonicalSha256 } from "../memory/canonical-json";
import type { HumanKeys } from "../memory/keys";
import { CONTEXT_METRICS, type PolicyDecision, effectiveLimits, evaluateTaskV1Strict, num, observedMetrics, verifyHumanRecords } from "./evaluate-v1";
import { type GoalTotals, type ValidGoalCheckpoint, type ValidGoalPolicy, totalValue } from "./goal-validate";
import type { LimitName } from "./schemas";

export type GoalScope = "goal" | "slice" | "action";

export interface GoalDecision {
  schema_version: 2;
  policy_id: string;
  policy_hash: string;
  decision: "continue" | "checkpoint" | "stop";
  spawn_allowed: boolean;
  checkpoint_required: boolean;
  reasons: string[];
  /** The base policy's thirteen limits with accepted overrides. */
  effective_limits: Record<string, number>;
  /** The checkpoint's `totals` exactly as stored (nulls kept). */
  observed_metrics: GoalTotals;
  scope: GoalScope;
  auto_continue: boolean;
}

/** Reasons a context limit gives: the active context is too large, so compact before acting again. */
export const CONTEXT_REASON_PREFIXES = [...CONTEXT_METRICS].sort().map((m) => `limit_reached:${m}=`);
/** Reasons about this action only: a diagnosis, a wait or a compaction can clear them. */
const ACTION_LOCAL_EXACT = ["task_status:error", "task_status:timed_out"];
const ACTION_LOCAL_PREFIXES = [...CONTEXT_REASON_PREFIXES, "limit_reached:same_failure_retries=", "limit_reached:no_evidence_cycles=", "limit_exceeded:active_children="];

/** Slice counters, the limit each meets as a slice boundary, in the order their reasons appear. */
export const SLICE_BOUNDARIES = [
  ["cycle", "max_cycles"],
  ["tool_calls", "max_tool_calls"],
  ["elapsed_seconds", "max_elapsed_seconds"],
  ["children_spawned", "max_children_per_parent"],
] as const satisfies readonly (readonly [string, LimitName])[];

export const CONTEXT_COMPACTION_REQUIRED = "context_compaction_required";
export const HUMAN_AUTHORIZATION_REQUIRED = "human_authorization_required";
export const COMPLETION_REASON = "completion_missing_acceptance_or_work_remains";
export const SLICE_NEEDS_REASON = "slice_needs_evidence_next_step_or_children_completion";
export const CONCURRENCY_EXCEEDED = "concurrency_exceeded";

const startsWithAny = (r: string, prefixes: readonly string[]) => prefixes.some((p) => r.startsWith(p));

/** Child slots held back for an independent reviewer: only while a review is required and this action is not it. */
export function reviewReserve(state: Pick<ValidGoalCheckpoint, "review_required" | "action_kind">, policy: Pick<ValidGoalPolicy, "reviewer_reserve">): number {
  return state.review_required && state.action_kind !== "review" ? policy.reviewer_reserve : 0;
}

/** The harness's `evaluate_goal` on validated documents: throws instead of failing closed. */
export function evaluateGoalStrict(state: ValidGoalCheckpoint, policy: ValidGoalPolicy, keys: HumanKeys | undefined): GoalDecision {
  const original = state.task;
  // 1-2. Signatures bind the task as stored, and overrides are judged against its own metrics.
  verifyHumanRecords(original, policy.base, keys);
  const effective = effectiveLimits(original, policy.base, observedMetrics(original), { contextCanShrink: true });

  // 3. The working copy: slice counters are judged as boundaries below, never as hard stops.
  const task: Record<string, unknown> = { ...original, cycle: 0, tool_calls: 0, elapsed_seconds: 0, children_spawned: 0 };
  if (state.action_kind === "diagnose" || state.action_kind === "wait") {
    task.same_failure_retries = 0;
    task.no_evidence_cycles = 0;
    if (task.status === "error" || task.status === "timed_out") task.status = "running";
  }
  task.overrides = [];

  // 4. The base evaluation, under the effective limits (re-validated as a v1 policy).
  const base: PolicyDecision = evaluateTaskV1Strict(task, { ...policy.baseDocument, limits: effective }, keys);
  const reasons = [...base.reasons];
  let decision = base.decision;
  let scope: GoalScope = decision === "stop" ? "goal" : "action";
  let auto = false;

  // 5. The goal layer, in this order.
  const contextReasons = reasons.filter((r) => startsWithAny(r, CONTEXT_REASON_PREFIXES));
  const pending = contextReasons.length > 0 || base.decision === "checkpoint";
  if (reasons.length > 0 && reasons.every((r) => ACTION_LOCAL_EXACT.includes(r) || startsWithAny(r, ACTION_LOCAL_PREFIXES))) scope = "action";
  if (contextReasons.length > 0 && contextReasons.length === reasons.length) decision = "checkpoint";
  if (pending) reasons.push(CONTEXT_COMPACTION_REQUIRED);
  if (state.requires_human) {
    decision = "stop";
    scope = "goal";
    reasons.push(HUMAN_AUTHORIZATION_REQUIRED);
  }
  for (const [key, maximum] of Object.entries(policy.goal_limits)) {
    const observed = totalValue(state.totals[key as keyof GoalTotals]);
    if (observed === null || observed >= totalValue(maximum)!) {
      decision = "stop";
      scope = "goal";
      reasons.push(`goal_limit:${key}:unknown_or_reached`);
    }
  }
  if (original.status === "completed" && (original.evidence_refs.length === 0 || state.next_step.length > 0)) {
    decision = "stop";
    scope = "goal";
    reasons.push(COMPLETION_REASON);
  }
  const counter = (key: string): number => (Object.prototype.hasOwnProperty.call(original, key) ? num(original[key] as number) : 0);
  const children = counter("children_spawned");
  const reached = SLICE_BOUNDARIES.filter(([key, cap]) => counter(key) >= effective[cap]!).map(([key]) => key);
  if (decision !== "stop" && reached.length > 0 && !pending) {
    decision = "checkpoint";
    scope = "slice";
    reasons.push(...reached.map((k) => `slice_limit:${k}`));
    const accepted = new Set(state.accepted_evidence);
    const fresh = original.evidence_refs.some((ref) => !accepted.has(ref));
    auto = fresh && state.next_step.length > 0 && (original.active_children as number) === 0;
    if (!auto) reasons.push(SLICE_NEEDS_REASON);
  }
  if ((original.active_children as number) > effective.max_concurrency!) {
    scope = decision === "stop" && scope === "goal" ? "goal" : "action";
    decision = "stop";
    auto = false;
    reasons.push(CONCURRENCY_EXCEEDED);
  }

  // 6. Spawning keeps the reviewer's slots free.
  const spawn = decision === "continue" && base.spawn_allowed && children < effective.max_children_per_parent! - reviewReserve(state, policy) && state.action_kind !== "wait";
  return {
    schema_version: 2,
    policy_id: policy.policy_id,
    policy_hash: canonicalSha256(policy.document),
    decision,
    spawn_allowed: spawn,
    checkpoint_required: decision === "checkpoint",
    reasons,
    effective_limits: effective,
    observed_metrics: state.totals,
    scope,
    auto_continue: auto,
  };
}
