/**
 * What the golden cases cannot show: the Workbench's own deliberate choices where the reference
 * would crash or read numbers JavaScript cannot hold, the reasons in words, and the task page's
 * rows for a GoalDecision.
 */
import { describe, expect, it } from "vitest";
import { PyFloat } from "../../../lib/memory/canonical-json";
import { parseHumanKeysJson } from "../../../lib/memory/keys";
import { parsePyJson } from "../../../lib/memory/py-json";
import { evaluatePolicy } from "../../../lib/policy/evaluate";
import { type ValidGoalCheckpoint, isGoalDocument, validateGoalCheckpoint, validateGoalPolicy } from "../../../lib/policy/goal-validate";
import { goalView } from "../../../lib/policy/goal-view";
import { reasonInWords } from "../../../lib/policy/reason-words";
import { GOLDEN_KEYS_JSON, goldenCase } from "../../helpers/goal-golden";

const KEYS = parseHumanKeysJson(GOLDEN_KEYS_JSON);
type Doc = Record<string, any>;
const docs = (name: string): { policy: Doc; checkpoint: Doc } => {
  const c = goldenCase(name);
  return { policy: parsePyJson(c.policy) as Doc, checkpoint: parsePyJson(c.checkpoint) as Doc };
};
const reasonsOf = (policy: unknown, checkpoint: unknown) => evaluatePolicy(policy, checkpoint, { keys: KEYS, policyFileName: "goal.policy.json" }).reasons;

describe("goal documents: the Workbench's deliberate differences (each fails closed)", () => {
  it("refuses integers past 2^53 instead of reading them inexactly", () => {
    const { policy, checkpoint } = docs("worked: cycle at the slice cap, fresh evidence, next step, no child");
    const big = parsePyJson("9007199254740993");
    expect(typeof big).toBe("bigint");
    expect(reasonsOf(policy, { ...checkpoint, usage: { ...checkpoint.usage, input_tokens: big } })).toEqual(["evaluation_error:input_tokens: integers above 2^53 are not supported"]);
    expect(reasonsOf({ ...policy, goal_limits: { cost_microusd: big } }, checkpoint)).toEqual(["evaluation_error:cost_microusd: integers above 2^53 are not supported"]);
  });

  it("fails closed on a NaN inside a history event, where the reference crashes while hashing it", () => {
    const { policy, checkpoint } = docs("history: one advanced slice, fresh evidence needed again");
    const event = { ...checkpoint.history[0], totals: { ...checkpoint.history[0].totals, elapsed_seconds: parsePyJson("NaN") } };
    const reasons = reasonsOf(policy, { ...checkpoint, history: [event] });
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/^evaluation_error:history event 0 cannot be hashed: Out of range float values are not JSON compliant/);
  });

  it("does not take `true` for a task's schema_version 1 (Python's True == 1)", () => {
    const { policy, checkpoint } = docs("worked: cycle at the slice cap, fresh evidence, next step, no child");
    expect(reasonsOf(policy, { ...checkpoint, task: { ...checkpoint.task, schema_version: true } })).toEqual(["evaluation_error:task must be public v1"]);
    expect(reasonsOf({ ...policy, base_policy: { ...policy.base_policy, schema_version: true } }, checkpoint)).toEqual(["evaluation_error:base_policy must be public v1"]);
  });

  it("selects the goal rules for schema_version 2 and 2.0, never for true or '2'", () => {
    expect([{ schema_version: 2 }, { schema_version: new PyFloat(2) }, { schema_version: true }, { schema_version: "2" }, null, [2]].map(isGoalDocument)).toEqual([true, true, false, false, false, false]);
  });

  it("returns the documents as read (numbers keep their identity) once valid", () => {
    const { policy, checkpoint } = docs("numbers: float elapsed in task and totals, boundary reached");
    const state = validateGoalCheckpoint(checkpoint);
    expect(state.totals.elapsed_seconds).toBeInstanceOf(PyFloat);
    expect(validateGoalPolicy(policy).base.policy_id).toBe("test-policy");
  });
});

describe("reasons in words", () => {
  const cases: [string, RegExp][] = [
    ["task_status:error", /status is error; only a running task continues\. A diagnose or wait action may continue/],
    ["task_status:cancelled", /status is cancelled; only a running task continues\.$/],
    ["human_gate:danger:decline", /A human declined gate danger/],
    ["human_gate:danger:revise", /sent gate danger back for revision/],
    ["limit_reached:transcript_bytes=200:max_transcript_bytes=200", /active context is too large: transcript_bytes is 200.*Compact it/],
    ["limit_reached:same_failure_retries=2:max_same_failure_retries=2", /retried 2 times.*diagnose or wait/],
    ["limit_reached:no_evidence_cycles=2:max_no_evidence_cycles=2", /2 cycles passed without new evidence/],
    ["limit_reached:cycle=0:max_cycles=0", /^cycle is 0, at or over max_cycles \(0\)\.$/],
    ["limit_exceeded:active_children=3:max_concurrency=2", /3 children run at once, more than max_concurrency \(2\)/],
    ["checkpoint_required:transcript_growth=100:checkpoint_transcript_bytes=100", /grew 100 bytes since the last checkpoint/],
    ["context_compaction_required", /compact the active context and measure it again/],
    ["human_authorization_required", /requires_human.*does not clear it; the host does/],
    ["completion_missing_acceptance_or_work_remains", /says completed, but it cites no evidence or a next step remains/],
    ["slice_needs_evidence_next_step_or_children_completion", /cannot advance on its own/],
    ["concurrency_exceeded", /More children run at once than max_concurrency/],
    ["evaluation_error:checkpoint and policy versions must match", /could not be evaluated.*A GoalCheckpoint v2 needs a goal policy/],
    ["something_new", /^something_new$/],
  ];
  it.each(cases)("%s", (reason, words) => {
    expect(reasonInWords(reason)).toMatch(words);
  });

  it("names the numbers of goal limits and slice boundaries when it has them", () => {
    expect(reasonInWords("goal_limit:cost_microusd:unknown_or_reached", { totals: { cost_microusd: null }, goalLimits: { cost_microusd: 5 } })).toBe(
      "The goal's cost_microusd total is unknown (null), so its goal limit (5) cannot be checked: the goal stops.",
    );
    expect(reasonInWords("goal_limit:tool_calls:unknown_or_reached", { totals: { tool_calls: 7 }, goalLimits: { tool_calls: 7 } })).toBe("The goal's tool_calls total (7) reached its goal limit (7): the goal stops.");
    expect(reasonInWords("goal_limit:elapsed_seconds:unknown_or_reached", { totals: { elapsed_seconds: new PyFloat(30) }, goalLimits: { elapsed_seconds: new PyFloat(30) } })).toBe(
      "The goal's elapsed_seconds total (30) reached its goal limit (30): the goal stops.",
    );
    expect(reasonInWords("goal_limit:tool_calls:unknown_or_reached")).toBe("The goal's tool_calls total reached its goal limit: the goal stops.");
    expect(reasonInWords("slice_limit:children_spawned", { limits: { max_children_per_parent: 4 } })).toMatch(/^Slice boundary: children_spawned reached max_children_per_parent \(4\)\./);
  });
});

describe("the task page's view of a GoalDecision", () => {
  const view = (name: string) => {
    const { policy, checkpoint } = docs(name);
    const d = evaluatePolicy(policy, checkpoint, { keys: KEYS, policyFileName: "goal.policy.json" });
    return { d, v: goalView(checkpoint as ValidGoalCheckpoint, validateGoalPolicy(policy), d) };
  };

  it("puts each goal total against its goal limit with the evaluator's rule (null under a limit stops)", () => {
    const { d, v } = view("worked: goal limits on cost and tool calls, cost unknown");
    expect(d.reasons).toEqual(["goal_limit:cost_microusd:unknown_or_reached"]);
    expect(v.totals.filter((t) => t.state !== "no_limit")).toEqual([
      { name: "tool_calls", total: 2, limit: 9, state: "under" },
      { name: "cost_microusd", total: null, limit: 5, state: "unknown" },
    ]);
    expect(view("goal layer: goal limit reached").v.totals.find((t) => t.name === "tool_calls")).toEqual({ name: "tool_calls", total: 7, limit: 7, state: "reached" });
  });

  it("shows pending compaction from the decision, with the context row reached", () => {
    const { v } = view("worked: transcript at the hard cap, growth below the soft threshold");
    expect(v.pendingCompaction).toBe(true);
    expect(v.action.find((a) => a.metric === "transcript_bytes")).toEqual({ metric: "transcript_bytes", value: 200, limit: "max_transcript_bytes", max: 200, kind: "context", reached: true });
    expect(v.slice.every((s) => !s.reached)).toBe(true);
  });

  it("holds the reviewer's slots back only while a review is required and this action is not it", () => {
    expect(view("spawn: review required, children at max minus reserve, execute").v.reserve).toEqual({ policyReserve: 1, inEffect: 1, childrenSpawned: 3, maxChildren: 4, executorRoom: 0 });
    expect(view("spawn: review required, children at max minus reserve, review").v.reserve).toMatchObject({ inEffect: 0, executorRoom: 1 });
  });

  it("lists each gate's winning decision (latest by instant) and the action they bind to", () => {
    const { v } = view("signatures: later approve (by instant, offsets count) clears a decline");
    expect(v.gates).toEqual([{ gate: "danger", decision: "approve", actor: "human:owner", timestamp: "2026-09-04T09:00:00Z", rationale: "r", records: 2 }]);
    expect(v.pendingActionHash).toBe("a".repeat(64));
  });

  it("uses the base limits when evaluation failed closed (no effective limits)", () => {
    const { policy, checkpoint } = docs("worked: cycle at the slice cap, fresh evidence, next step, no child");
    const broken = evaluatePolicy({ ...policy, reviewer_reserve: 9 }, checkpoint, { keys: KEYS, policyFileName: "goal.policy.json" });
    expect(broken.effective_limits).toEqual({});
    const v = goalView(checkpoint as ValidGoalCheckpoint, validateGoalPolicy(policy), broken);
    expect(v.slice[0]).toEqual({ counter: "cycle", value: 3, limit: "max_cycles", max: 3, reached: true });
  });
});
