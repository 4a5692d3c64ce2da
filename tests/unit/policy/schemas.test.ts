import { describe, expect, it } from "vitest";
import { canonicalSha256 } from "../../../lib/memory/canonical-json";
import { evaluatePolicy } from "../../../lib/policy/evaluate";
import { goalCheckpointV2Schema, goalDecisionV2Schema, policyDecisionV1Schema, policyV1Schema, portablePolicySchema, taskCheckpointV1Schema } from "../../../lib/policy/schemas";
import { validateCheckpoint, validatePolicy } from "../../../lib/policy/validate";
import { KEYS, checkpoint, decision, override, samplePolicy, signingPolicy } from "./fixtures";

const ok = (f: () => unknown) => {
  try {
    f();
    return true;
  } catch {
    return false;
  }
};

describe("harness schemas", () => {
  it("accept the reference samples", () => {
    expect(policyV1Schema.safeParse(samplePolicy()).success).toBe(true);
    expect(taskCheckpointV1Schema.safeParse(checkpoint()).success).toBe(true);
    expect(taskCheckpointV1Schema.safeParse(checkpoint({ decisions: [decision("H1", "approve", "2026-08-31T00:00:00Z")], overrides: [override("max_cycles", 5, 0)] })).success).toBe(true);
  });

  it("treat the optional checkpoint counters as defaulting to 0 (absent is valid)", () => {
    const c = checkpoint();
    for (const k of ["children_spawned", "last_checkpoint_transcript_bytes", "task_packet_tokens", "parent_summary_tokens", "memory_digest_tokens", "child_result_words"]) delete c[k];
    expect(taskCheckpointV1Schema.safeParse(c).success).toBe(true);
    expect(evaluatePolicy(samplePolicy(), c).observed_metrics).toMatchObject({ children_spawned: 0, last_checkpoint_transcript_bytes: 0, child_result_words: 0 });
  });

  it("agree with the harness validator on what is valid", () => {
    const policies: unknown[] = [
      samplePolicy(),
      { ...samplePolicy(), extra: 1 },
      { ...samplePolicy(), schema_version: 2 },
      { ...samplePolicy(), policy_id: "" },
      { ...samplePolicy(), limits: { ...samplePolicy().limits, max_cycles: -1 } },
      { ...samplePolicy(), limits: { ...samplePolicy().limits, max_concurrency: 5 } },
      { ...samplePolicy(), limits: { ...samplePolicy().limits, checkpoint_transcript_bytes: 300000 } },
      { ...samplePolicy(), human_authorization: { key_hashes: { "a b": "a".repeat(64) } } },
      { ...samplePolicy(), human_authorization: { key_hashes: { a: "A".repeat(64) } } },
    ];
    for (const p of policies) expect(policyV1Schema.safeParse(p).success, JSON.stringify(p)).toBe(ok(() => validatePolicy(p)));

    const d = decision("H1", "approve", "2026-08-31T00:00:00Z");
    const checkpoints: unknown[] = [
      checkpoint(),
      checkpoint({ status: "paused" }),
      checkpoint({ cycle: -1 }),
      checkpoint({ elapsed_seconds: 1.5 }),
      checkpoint({ elapsed_seconds: -0.5 }),
      checkpoint({ evidence_refs: ["a", "a"] }),
      checkpoint({ updated_at: "2026-08-31T00:00:00" }),
      checkpoint({ updated_at: "yesterday" }),
      checkpoint({ parent_id: "" }),
      checkpoint({ stop_reason: "" }),
      checkpoint({ silent_retry: true }),
      checkpoint({ decisions: [d], pending_action_hash: null }),
      checkpoint({ decisions: [d], pending_action_hash: "b".repeat(64) }),
      checkpoint({ decisions: [{ ...d, actor: "delegated-executor" }] }),
      checkpoint({ decisions: [{ ...d, actor: "human:" }] }),
      checkpoint({ decisions: [{ ...d, decision: "maybe" }] }),
      checkpoint({ overrides: [override("max_cycles", 4, 0), override("max_cycles", 5, 0)] }),
      checkpoint({ overrides: [override("max_imaginary", 4, 0)] }),
      checkpoint({ overrides: [{ ...override("max_cycles", 4, 0), authorization: { scheme: "rsa", key_id: "owner", signature: "a".repeat(64) } }] }),
    ];
    for (const c of checkpoints) expect(taskCheckpointV1Schema.safeParse(c).success, JSON.stringify(c).slice(0, 200)).toBe(ok(() => validateCheckpoint(c)));
  });

  it("accept the portable policy and refuse a changed terminal-state contract", () => {
    const portable = {
      version: 1,
      limits: {
        max_plan_act_reflect_cycles: 3,
        max_tool_calls: 10,
        max_wall_time_seconds: 60,
        checkpoint_transcript_bytes: 100,
        max_transcript_bytes: 200,
        max_same_failure_retries: 2,
        max_no_evidence_cycles: 2,
        max_children_per_parent: 4,
        max_concurrency: 2,
      },
      context: { task_packet_tokens: 500, parent_summary_tokens: 100, memory_digest_tokens: 100, child_result_words: 50 },
      terminal_states: ["completed", "blocked", "budget_exhausted", "error", "cancelled"],
    };
    expect(portablePolicySchema.safeParse(portable).success).toBe(true);
    expect(portablePolicySchema.safeParse({ ...portable, terminal_states: ["running"] }).success).toBe(false);
  });

  it("describe every PolicyDecision v1 the evaluator produces, including fail-closed ones", () => {
    const results = [
      evaluatePolicy(samplePolicy(), checkpoint()),
      evaluatePolicy(signingPolicy(), checkpoint({ cycle: 9, decisions: [decision("H1", "decline", "2026-08-31T00:00:00Z")] }), { keys: KEYS }),
      evaluatePolicy(null, null, { policyFileName: "x.json" }),
    ];
    for (const r of results) expect(policyDecisionV1Schema.safeParse(JSON.parse(JSON.stringify(r))).success).toBe(true);
    expect(policyDecisionV1Schema.safeParse({ ...results[0], decision: "pause" }).success).toBe(false);
  });

  it("validate a GoalCheckpoint v2 and a GoalDecision v2", () => {
    const task = checkpoint();
    const totals = { cycle: 0, tool_calls: 0, elapsed_seconds: 0, children_spawned: 0, input_tokens: null, cached_input_tokens: null, output_tokens: null, cost_microusd: null };
    const goal = {
      schema_version: 2,
      task_id: task.task_id,
      goal_id: "g",
      slice_id: 0,
      task,
      totals,
      baseline: { ...totals, input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, cost_microusd: 0 },
      usage: { input_tokens: null, cached_input_tokens: null, output_tokens: null, cost_microusd: null },
      accepted_evidence: [],
      history: [],
      next_step: "",
      action_kind: "execute",
      review_required: false,
      requires_human: false,
      source_sha256: canonicalSha256(task),
      failure_history: [],
      active_failure: null,
    };
    expect(goalCheckpointV2Schema.safeParse(goal).success).toBe(true);
    expect(goalCheckpointV2Schema.safeParse({ ...goal, task_id: "other" }).error?.issues[0]?.message).toBe("task_id mismatch");
    expect(goalCheckpointV2Schema.safeParse({ ...goal, slice_id: 1 }).error?.issues[0]?.message).toBe("slice id does not match history");
    expect(goalCheckpointV2Schema.safeParse({ ...goal, action_kind: "sleep" }).success).toBe(false);
    const decisionV2 = {
      schema_version: 2,
      policy_id: "p-goals",
      policy_hash: "a".repeat(64),
      decision: "checkpoint",
      spawn_allowed: false,
      checkpoint_required: true,
      reasons: ["slice_limit:cycle"],
      effective_limits: { max_cycles: 3 },
      observed_metrics: totals,
      scope: "slice",
      auto_continue: true,
    };
    expect(goalDecisionV2Schema.safeParse(decisionV2).success).toBe(true);
    expect(goalDecisionV2Schema.safeParse({ ...decisionV2, scope: "task" }).success).toBe(false);
  });
});
