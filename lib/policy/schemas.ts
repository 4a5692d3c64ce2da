/**
 * Zod schemas of the agent-collab harness documents (FORMATS §4), matching the harness's JSON
 * schemas: Policy v1 and the portable v1 alternative (agent-policy-1.json), GoalPolicy v2
 * (agent-policy-2.json), TaskCheckpoint v1 (task-checkpoint-1.json), GoalCheckpoint v2
 * (task-checkpoint-2.json), and the PolicyDecision v1
 * / GoalDecision v2 outputs (policy-decision-1/2.json).
 *
 * They are for validation with every fault listed (readCoord, forms), typing and documentation.
 * `evaluatePolicy` does not use them: it must reproduce the harness's own validator, which stops
 * at the first fault with its own wording (see validate.ts). Numbers follow Python: an integer
 * field refuses a float even when integral (`3.0`, a {@link PyFloat} after the lossless parser),
 * a number field takes either. Integers past 2^53 are refused (the harness would take them).
 */
import { z } from "zod";
import { PyFloat } from "../memory/canonical-json";
import { authorizationSchema, gateDecisionSchema, HEX64 } from "../memory/decision-record";
import { isAwareTimestamp } from "../memory/timestamp";

export const LIMIT_NAMES = [
  "max_cycles",
  "max_tool_calls",
  "max_elapsed_seconds",
  "checkpoint_transcript_bytes",
  "max_transcript_bytes",
  "max_same_failure_retries",
  "max_no_evidence_cycles",
  "max_children_per_parent",
  "max_concurrency",
  "max_task_packet_tokens",
  "max_parent_summary_tokens",
  "max_memory_digest_tokens",
  "max_child_result_words",
] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];

export const CHECKPOINT_STATUSES = ["running", "waiting_for_human", "completed", "blocked", "budget_exhausted", "error", "cancelled", "declined", "timed_out"] as const;

const count = z.number().int().min(0);
/** A finite non-negative int or float (PyFloat for an integral float read from a file). */
const pyNumber = z.union([z.number().min(0), z.instanceof(PyFloat).refine((f) => Number.isFinite(f.value) && f.value >= 0, "must be a finite non-negative number")]);
const text = z.string().regex(/\S/, "must be a non-empty string");
const hash = z.string().regex(HEX64, "must be a lowercase SHA-256 hex digest");
const timestamp = z.string().refine(isAwareTimestamp, "must be an ISO 8601 date-time with a timezone");
const uniqueStrings = z.array(text).refine((a) => new Set(a).size === a.length, "must not contain duplicates");

const limitDescriptions: Record<LimitName, string> = {
  max_cycles: "plan-act-reflect cycles; cycle >= this stops",
  max_tool_calls: "tool calls; tool_calls >= this stops",
  max_elapsed_seconds: "wall time in seconds; elapsed_seconds >= this stops",
  checkpoint_transcript_bytes: "transcript growth since the last checkpoint that requires a new one",
  max_transcript_bytes: "transcript size; transcript_bytes >= this stops",
  max_same_failure_retries: "retries of the same failure; reaching it stops",
  max_no_evidence_cycles: "cycles without new evidence; reaching it stops",
  max_children_per_parent: "children a parent may spawn in total",
  max_concurrency: "children running at once",
  max_task_packet_tokens: "task packet size in tokens; reaching it stops",
  max_parent_summary_tokens: "parent summary size in tokens; reaching it stops",
  max_memory_digest_tokens: "memory digest size in tokens; reaching it stops",
  max_child_result_words: "child result size in words; reaching it stops",
};

export const policyLimitsSchema = z
  .strictObject(Object.fromEntries(LIMIT_NAMES.map((n) => [n, count.describe(limitDescriptions[n])])) as Record<LimitName, typeof count>)
  .superRefine((l, ctx) => {
    if (l.max_transcript_bytes < l.checkpoint_transcript_bytes) ctx.addIssue({ code: "custom", path: ["max_transcript_bytes"], message: "max_transcript_bytes must be >= checkpoint_transcript_bytes" });
    if (l.max_concurrency > l.max_children_per_parent) ctx.addIssue({ code: "custom", path: ["max_concurrency"], message: "max_concurrency must be <= max_children_per_parent" });
  })
  .describe("the thirteen numeric limits");

export const humanAuthorizationSchema = z
  .strictObject({
    key_hashes: z.record(z.string().regex(/^\S+$/, "key ids must not contain whitespace"), hash).describe("key_id -> sha256 hex of the secret; only these keys can sign human records"),
  })
  .describe("who may sign human decisions and overrides");

export const policyV1Schema = z
  .strictObject({
    schema_version: z.literal(1).describe("always 1"),
    policy_id: text.describe("policy name, reported in every decision"),
    human_authorization: humanAuthorizationSchema,
    limits: policyLimitsSchema,
  })
  .describe("agent policy v1");

export const PORTABLE_LIMIT_NAMES = [
  "max_plan_act_reflect_cycles",
  "max_tool_calls",
  "max_wall_time_seconds",
  "checkpoint_transcript_bytes",
  "max_transcript_bytes",
  "max_same_failure_retries",
  "max_no_evidence_cycles",
  "max_children_per_parent",
  "max_concurrency",
] as const;
export const PORTABLE_CONTEXT_NAMES = ["task_packet_tokens", "parent_summary_tokens", "memory_digest_tokens", "child_result_words"] as const;
export const PORTABLE_TERMINAL_STATES = ["completed", "blocked", "budget_exhausted", "error", "cancelled"] as const;

export const portablePolicySchema = z
  .strictObject({
    version: z.literal(1).describe("always 1"),
    limits: z
      .strictObject(Object.fromEntries(PORTABLE_LIMIT_NAMES.map((n) => [n, count.describe(`portable limit ${n}`)])) as Record<(typeof PORTABLE_LIMIT_NAMES)[number], typeof count>)
      .describe("limits under their portable names (max_plan_act_reflect_cycles = max_cycles, max_wall_time_seconds = max_elapsed_seconds)"),
    context: z.strictObject(Object.fromEntries(PORTABLE_CONTEXT_NAMES.map((n) => [n, count.describe(`max_${n}`)])) as Record<(typeof PORTABLE_CONTEXT_NAMES)[number], typeof count>).describe("context-size limits"),
    terminal_states: uniqueStrings
      .refine((a) => a.length === PORTABLE_TERMINAL_STATES.length && a.every((s, i) => s === PORTABLE_TERMINAL_STATES[i]), "terminal_states must match the supported canonical v1 set")
      .describe("exactly completed, blocked, budget_exhausted, error, cancelled"),
  })
  .describe("portable harness policy v1 (normalized to policy v1 with policy_id portable-harness-agent-budget-v1 and no keys)");

export const anyPolicySchema = z.union([policyV1Schema, portablePolicySchema]).describe("policy v1 or portable v1");

export const overrideSchema = z
  .strictObject({
    limit: z.enum(LIMIT_NAMES).describe("the limit raised"),
    value: count.describe("the new limit; never lower than the policy's"),
    observed_value: pyNumber.describe("the metric when the human authorized it; must be below the original limit and not above the current metric"),
    reason: text.describe("why"),
    actor: z
      .string()
      .regex(/^human:\S+$/, "actor must use the human: namespace")
      .describe('"human:<key_id>"'),
    timestamp: timestamp.describe("when"),
    affected_action_hash: hash.describe("the pending action it authorizes"),
    authorization: authorizationSchema,
  })
  .describe("signed human override of one limit");

const optionalCounts = {
  children_spawned: count.optional().describe("children spawned so far (default 0)"),
  last_checkpoint_transcript_bytes: count.optional().describe("transcript_bytes at the last checkpoint (default 0)"),
  task_packet_tokens: count.optional().describe("current task packet size in tokens (default 0)"),
  parent_summary_tokens: count.optional().describe("parent summary size in tokens (default 0)"),
  memory_digest_tokens: count.optional().describe("memory digest size in tokens (default 0)"),
  child_result_words: count.optional().describe("largest child result in words (default 0)"),
};

export const taskCheckpointV1Schema = z
  .strictObject({
    schema_version: z.literal(1).describe("always 1"),
    task_id: text.describe("task id"),
    parent_id: text.nullable().describe("parent task id, null for a root task"),
    status: z.enum(CHECKPOINT_STATUSES).describe("running, or a terminal/paused status that stops"),
    cycle: count.describe("plan-act-reflect cycles done"),
    tool_calls: count.describe("tool calls made"),
    elapsed_seconds: pyNumber.describe("wall time so far"),
    transcript_bytes: count.describe("transcript size"),
    same_failure_retries: count.describe("retries of the current failure"),
    no_evidence_cycles: count.describe("cycles without new evidence"),
    active_children: count.describe("children running now"),
    ...optionalCounts,
    pending_action_hash: hash.nullable().optional().describe("hash of the action awaiting human decision; required once decisions or overrides exist, and they must all name it"),
    evidence_refs: uniqueStrings.describe("evidence collected (unique)"),
    decisions: z.array(gateDecisionSchema).describe("signed human gate decisions"),
    overrides: z.array(overrideSchema).describe("signed limit overrides, at most one per limit"),
    stop_reason: text.nullable().describe("why the task stopped, if it did"),
    updated_at: timestamp.describe("last update"),
  })
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    c.overrides.forEach((o, i) => {
      if (seen.has(o.limit)) ctx.addIssue({ code: "custom", path: ["overrides", i, "limit"], message: `duplicate checkpoint override: ${o.limit}` });
      seen.add(o.limit);
    });
    if (c.decisions.length + c.overrides.length > 0) {
      const pending = c.pending_action_hash ?? null;
      if (pending === null) ctx.addIssue({ code: "custom", path: ["pending_action_hash"], message: "pending_action_hash is required when decisions or overrides exist" });
      else {
        c.decisions.forEach((d, i) => {
          if (d.affected_action_hash !== pending) ctx.addIssue({ code: "custom", path: ["decisions", i, "affected_action_hash"], message: "affected_action_hash must match checkpoint.pending_action_hash" });
        });
        c.overrides.forEach((o, i) => {
          if (o.affected_action_hash !== pending) ctx.addIssue({ code: "custom", path: ["overrides", i, "affected_action_hash"], message: "affected_action_hash must match checkpoint.pending_action_hash" });
        });
      }
    }
  })
  .describe("TaskCheckpoint v1");

const nullableCount = count.nullable();
export const goalTotalsSchema = z
  .strictObject({
    cycle: count.describe("cycles over the whole goal"),
    tool_calls: count.describe("tool calls over the whole goal"),
    elapsed_seconds: pyNumber.describe("wall time over the whole goal"),
    children_spawned: count.describe("children over the whole goal"),
    input_tokens: nullableCount.describe("input tokens, null when unknown"),
    cached_input_tokens: nullableCount.describe("cached input tokens, null when unknown"),
    output_tokens: nullableCount.describe("output tokens, null when unknown"),
    cost_microusd: nullableCount.describe("cost in micro-USD, null when unknown"),
  })
  .describe("cumulative counters");

export const goalUsageSchema = z
  .strictObject({
    input_tokens: nullableCount.describe("input tokens this slice"),
    cached_input_tokens: nullableCount.describe("cached input tokens this slice"),
    output_tokens: nullableCount.describe("output tokens this slice"),
    cost_microusd: nullableCount.describe("cost this slice in micro-USD"),
  })
  .describe("model usage of the current slice");

export const goalCheckpointV2Schema = z
  .strictObject({
    schema_version: z.literal(2).describe("always 2"),
    task_id: text.describe("task id; equals task.task_id"),
    goal_id: text.describe("goal id"),
    slice_id: count.describe("slices completed; equals history length"),
    task: taskCheckpointV1Schema.describe("the current slice's TaskCheckpoint v1"),
    totals: goalTotalsSchema.describe("baseline plus the current slice"),
    baseline: goalTotalsSchema.describe("totals at the start of the slice"),
    usage: goalUsageSchema,
    accepted_evidence: uniqueStrings.describe("evidence accepted at slice transitions (never reset)"),
    history: z
      .array(
        z
          .strictObject({
            slice_id: count.describe("slice number"),
            request_id: text.describe("advance request id (unique)"),
            previous_sha256: hash.nullable().describe("previous entry's sha256 (hash chain)"),
            sha256: hash.describe("sha256 of this entry without this field"),
            totals: goalTotalsSchema,
            task_sha256: hash.describe("hash of the slice's task checkpoint"),
            evidence_refs: z.array(text).describe("evidence accepted at this transition"),
          })
          .describe("one slice transition receipt"),
      )
      .describe("slice transitions, hash-chained"),
    next_step: z.string().describe("what the next slice does (may be empty)"),
    action_kind: z.enum(["execute", "diagnose", "review", "wait"]).describe("kind of the next action"),
    review_required: z.boolean().describe("an independent review is required"),
    requires_human: z.boolean().describe("a human must act before continuing"),
    source_sha256: hash.describe("hash of the checkpoint this goal was created or migrated from"),
    failure_history: z
      .array(
        z
          .strictObject({
            identity: hash.describe("hash of operation and target"),
            input_sha256: hash.describe("hash of the relevant inputs"),
            error_class: text.describe("error class"),
            attempts: count.describe("attempts with these inputs"),
            evidence_ref: text.describe("latest evidence of the failure"),
            observed_evidence: z.array(text).describe("evidence seen while failing"),
          })
          .describe("one failure identity"),
      )
      .describe("failures, never deleted"),
    active_failure: hash.nullable().describe("the failure being retried, or null"),
  })
  .superRefine((g, ctx) => {
    if (g.task_id !== g.task.task_id) ctx.addIssue({ code: "custom", path: ["task_id"], message: "task_id mismatch" });
    if (g.history.length !== g.slice_id) ctx.addIssue({ code: "custom", path: ["slice_id"], message: "slice id does not match history" });
  })
  .describe("GoalCheckpoint v2");

const GOAL_TOTAL_NAMES = ["cycle", "tool_calls", "elapsed_seconds", "children_spawned", "input_tokens", "cached_input_tokens", "output_tokens", "cost_microusd"] as const;

export const goalPolicyV2Schema = z
  .strictObject({
    schema_version: z.literal(2).describe("always 2"),
    policy_id: text.describe("the goal policy's id, reported in every GoalDecision"),
    base_policy: policyV1Schema.describe("a public policy v1: per-slice and per-action limits, and the pinned human key hashes"),
    goal_limits: z
      .strictObject({
        ...(Object.fromEntries(GOAL_TOTAL_NAMES.filter((n) => n !== "elapsed_seconds").map((n) => [n, count.optional().describe(`lifetime budget on the ${n} total; reached (or unknown) stops the goal`)])) as Record<
          Exclude<(typeof GOAL_TOTAL_NAMES)[number], "elapsed_seconds">,
          z.ZodOptional<typeof count>
        >),
        elapsed_seconds: pyNumber.optional().describe("lifetime budget on wall time in seconds; reached stops the goal"),
      })
      .describe("lifetime budgets over the cumulative totals; {} for none"),
    reviewer_reserve: count.describe("child slots held back for an independent reviewer while a review is required"),
  })
  .superRefine((g, ctx) => {
    if (g.reviewer_reserve >= g.base_policy.limits.max_children_per_parent) ctx.addIssue({ code: "custom", path: ["reviewer_reserve"], message: "review reserve must leave an executor slot" });
  })
  .describe("GoalPolicy v2");

export const policyDecisionV1Schema = z
  .strictObject({
    schema_version: z.literal(1).describe("always 1"),
    policy_id: text.describe("policy_id, or the policy file's base name when it could not be read"),
    policy_hash: hash.nullable().describe("sha256 of the canonical policy JSON; null when evaluation failed"),
    decision: z.enum(["continue", "checkpoint", "stop"]).describe("what the agent must do"),
    spawn_allowed: z.boolean().describe("whether a child may be spawned now"),
    checkpoint_required: z.boolean().describe("true when the decision is checkpoint"),
    reasons: z.array(z.string().min(1)).describe("why, in fixed order"),
    effective_limits: z.record(z.string(), count).describe("policy limits with accepted overrides"),
    observed_metrics: z.record(z.string(), pyNumber).describe("the metrics evaluated"),
  })
  .describe("PolicyDecision v1");

export const goalDecisionV2Schema = z
  .strictObject({
    schema_version: z.literal(2).describe("always 2"),
    policy_id: text.describe("policy id"),
    policy_hash: hash.nullable().describe("sha256 of the canonical policy JSON"),
    decision: z.enum(["continue", "checkpoint", "stop"]).describe("what the agent must do"),
    spawn_allowed: z.boolean().describe("whether a child may be spawned now"),
    checkpoint_required: z.boolean().describe("true when the decision is checkpoint"),
    reasons: z.array(text).describe("why"),
    effective_limits: z.record(z.string(), count).describe("effective limits"),
    observed_metrics: goalTotalsSchema.describe("goal totals"),
    scope: z.enum(["goal", "slice", "action"]).describe("what the decision stops or checkpoints"),
    auto_continue: z.boolean().describe("a checkpointed slice may advance automatically"),
  })
  .describe("GoalDecision v2");

export type PolicyV1 = z.infer<typeof policyV1Schema>;
export type PortablePolicy = z.infer<typeof portablePolicySchema>;
export type PolicyLimits = z.infer<typeof policyLimitsSchema>;
export type Override = z.infer<typeof overrideSchema>;
export type TaskCheckpointV1 = z.infer<typeof taskCheckpointV1Schema>;
export type GoalCheckpointV2 = z.infer<typeof goalCheckpointV2Schema>;
export type PolicyDecisionV1 = z.infer<typeof policyDecisionV1Schema>;
export type GoalDecisionV2 = z.infer<typeof goalDecisionV2Schema>;
export type GoalPolicyV2 = z.infer<typeof goalPolicyV2Schema>;
