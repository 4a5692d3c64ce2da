import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pyJsonDumps } from "../../../lib/memory/canonical-json";
import { parseHumanKeysJson } from "../../../lib/memory/keys";
import { parsePyJson } from "../../../lib/memory/py-json";
import { evaluateExitCode, evaluatePolicy, evaluatePolicyFiles, fallbackPolicyId } from "../../../lib/policy/evaluate";
import { CHECKPOINT_SAMPLE, KEYS, POLICY_SAMPLE, checkpoint, decision, override, samplePolicy, signingPolicy } from "./fixtures";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wb-policy-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const write = (name: string, value: unknown) => {
  const p = path.join(tmp, name);
  fs.writeFileSync(p, typeof value === "string" ? value : JSON.stringify(value, null, 2));
  return p;
};
const evalCp = (fields: Record<string, unknown>, policy: Record<string, unknown> = samplePolicy()) => evaluatePolicy(policy, checkpoint(fields), { keys: KEYS, policyFileName: "policy.json" });

describe("evaluatePolicy", () => {
  it("continues on the reference samples", () => {
    const d = evaluatePolicyFiles(POLICY_SAMPLE, CHECKPOINT_SAMPLE);
    expect(d).toMatchObject({ schema_version: 1, policy_id: "example-policy", decision: "continue", spawn_allowed: true, checkpoint_required: false, reasons: [] });
    // sha256 of Python's canonical JSON of the policy document
    expect(d.policy_hash).toBe("5877bd688392c3d5f549794a89d6f632b93fe7185470bdf02d1c02f2410bfd2c");
    expect(Object.keys(d.effective_limits)).toEqual(Object.keys(samplePolicy().limits));
    expect(Object.keys(d.observed_metrics)).toEqual([
      "cycle",
      "tool_calls",
      "elapsed_seconds",
      "transcript_bytes",
      "same_failure_retries",
      "no_evidence_cycles",
      "children_spawned",
      "active_children",
      "task_packet_tokens",
      "parent_summary_tokens",
      "memory_digest_tokens",
      "child_result_words",
      "last_checkpoint_transcript_bytes",
    ]);
    expect(evaluateExitCode(d)).toBe(0);
  });

  it.each([
    ["cycle", 3, "limit_reached:cycle=3:max_cycles=3"],
    ["tool_calls", 20, "limit_reached:tool_calls=20:max_tool_calls=20"],
    ["elapsed_seconds", 600, "limit_reached:elapsed_seconds=600:max_elapsed_seconds=600"],
    ["transcript_bytes", 200000, "limit_reached:transcript_bytes=200000:max_transcript_bytes=200000"],
    ["same_failure_retries", 2, "limit_reached:same_failure_retries=2:max_same_failure_retries=2"],
    ["no_evidence_cycles", 2, "limit_reached:no_evidence_cycles=2:max_no_evidence_cycles=2"],
    ["task_packet_tokens", 2000, "limit_reached:task_packet_tokens=2000:max_task_packet_tokens=2000"],
    ["parent_summary_tokens", 1000, "limit_reached:parent_summary_tokens=1000:max_parent_summary_tokens=1000"],
    ["memory_digest_tokens", 500, "limit_reached:memory_digest_tokens=500:max_memory_digest_tokens=500"],
    ["child_result_words", 250, "limit_reached:child_result_words=250:max_child_result_words=250"],
  ])("stops when %s reaches its limit", (field, value, reason) => {
    const d = evalCp({ [field]: value });
    expect(d).toMatchObject({ decision: "stop", spawn_allowed: false, checkpoint_required: false, reasons: [reason] });
    expect(evalCp({ [field]: value - 1 }).reasons.filter((r) => r.startsWith("limit_reached"))).toEqual([]);
  });

  it.each(["waiting_for_human", "completed", "blocked", "budget_exhausted", "error", "cancelled", "declined", "timed_out"])("stops on status %s", (status) => {
    expect(evalCp({ status })).toMatchObject({ decision: "stop", spawn_allowed: false, reasons: [`task_status:${status}`] });
  });

  it("blocks spawning at the child limits and stops past them", () => {
    expect(evalCp({ children_spawned: 4 })).toMatchObject({ decision: "continue", spawn_allowed: false, reasons: [] });
    expect(evalCp({ active_children: 2 })).toMatchObject({ decision: "continue", spawn_allowed: false });
    expect(evalCp({ children_spawned: 5 }).reasons).toEqual(["limit_exceeded:children_spawned=5:max_children_per_parent=4"]);
    expect(evalCp({ active_children: 3 }).reasons).toEqual(["limit_exceeded:active_children=3:max_concurrency=2"]);
  });

  it("asks for a checkpoint on transcript growth, only when nothing else fired", () => {
    const d = evalCp({ transcript_bytes: 150000, last_checkpoint_transcript_bytes: 50000 });
    expect(d).toMatchObject({ decision: "checkpoint", checkpoint_required: true, spawn_allowed: false, reasons: ["checkpoint_required:transcript_growth=100000:checkpoint_transcript_bytes=100000"] });
    expect(evaluateExitCode(d)).toBe(3);
    expect(evalCp({ transcript_bytes: 149999, last_checkpoint_transcript_bytes: 50000 }).decision).toBe("continue");
    expect(evalCp({ transcript_bytes: 150000, last_checkpoint_transcript_bytes: 50000, cycle: 3 }).reasons).toEqual(["limit_reached:cycle=3:max_cycles=3"]);
  });

  it("matches the Python harness byte for byte on a case with every kind of reason", () => {
    // Documents built like tests/oracle: blocked status, a revise and a decline (latest by
    // timestamp; +00:30 makes 01:00 the later instant), an accepted override, a float metric.
    const policy: Record<string, any> = { ...signingPolicy(), policy_id: "golden" };
    const cp = checkpoint({
      task_id: "t",
      status: "blocked",
      cycle: 3,
      tool_calls: 12,
      elapsed_seconds: 75.5,
      transcript_bytes: 120,
      active_children: 3,
      children_spawned: 5,
      evidence_refs: ["a"],
      decisions: [decision("H2", "revise", "2026-08-31T00:00:00Z"), decision("H1", "approve", "2026-08-31T00:00:00Z"), decision("H1", "decline", "2026-08-31T01:00:00+00:30")],
      overrides: [override("max_tool_calls", 11, 5)],
      stop_reason: "blocked on review",
    });
    delete cp.last_checkpoint_transcript_bytes;
    const limits = {
      ...policy.limits,
      checkpoint_transcript_bytes: 100,
      max_transcript_bytes: 200,
      max_cycles: 3,
      max_tool_calls: 10,
      max_elapsed_seconds: 60,
      max_task_packet_tokens: 500,
      max_parent_summary_tokens: 100,
      max_memory_digest_tokens: 100,
      max_child_result_words: 50,
    };
    const d = evaluatePolicy({ ...policy, limits }, cp, { keys: KEYS });
    expect(d.reasons).toEqual([
      "task_status:blocked",
      "human_gate:H2:revise",
      "human_gate:H1:decline",
      "limit_reached:cycle=3:max_cycles=3",
      "limit_reached:tool_calls=12:max_tool_calls=11",
      "limit_reached:elapsed_seconds=75.5:max_elapsed_seconds=60",
      "limit_exceeded:children_spawned=5:max_children_per_parent=4",
      "limit_exceeded:active_children=3:max_concurrency=2",
    ]);
    expect(d.effective_limits.max_tool_calls).toBe(11);
    // What the Python harness CLI prints for these two documents (json.dumps indent=2, sort_keys).
    const python = [
      "{",
      '  "checkpoint_required": false,',
      '  "decision": "stop",',
      '  "effective_limits": {',
      '    "checkpoint_transcript_bytes": 100,',
      '    "max_child_result_words": 50,',
      '    "max_children_per_parent": 4,',
      '    "max_concurrency": 2,',
      '    "max_cycles": 3,',
      '    "max_elapsed_seconds": 60,',
      '    "max_memory_digest_tokens": 100,',
      '    "max_no_evidence_cycles": 2,',
      '    "max_parent_summary_tokens": 100,',
      '    "max_same_failure_retries": 2,',
      '    "max_task_packet_tokens": 500,',
      '    "max_tool_calls": 11,',
      '    "max_transcript_bytes": 200',
      "  },",
      '  "observed_metrics": {',
      '    "active_children": 3,',
      '    "child_result_words": 0,',
      '    "children_spawned": 5,',
      '    "cycle": 3,',
      '    "elapsed_seconds": 75.5,',
      '    "last_checkpoint_transcript_bytes": 0,',
      '    "memory_digest_tokens": 0,',
      '    "no_evidence_cycles": 0,',
      '    "parent_summary_tokens": 0,',
      '    "same_failure_retries": 0,',
      '    "task_packet_tokens": 0,',
      '    "tool_calls": 12,',
      '    "transcript_bytes": 120',
      "  },",
      '  "policy_hash": "1123b35424a366c7eab5d403250c60cbffaf9923cfe5303ed9834d88f0758953",',
      '  "policy_id": "golden",',
      '  "reasons": [',
      '    "task_status:blocked",',
      '    "human_gate:H2:revise",',
      '    "human_gate:H1:decline",',
      '    "limit_reached:cycle=3:max_cycles=3",',
      '    "limit_reached:tool_calls=12:max_tool_calls=11",',
      '    "limit_reached:elapsed_seconds=75.5:max_elapsed_seconds=60",',
      '    "limit_exceeded:children_spawned=5:max_children_per_parent=4",',
      '    "limit_exceeded:active_children=3:max_concurrency=2"',
      "  ],",
      '  "schema_version": 1,',
      '  "spawn_allowed": false',
      "}",
    ].join("\n");
    expect(pyJsonDumps(d, { indent: 2, sortKeys: true })).toBe(python);
  });

  it("applies a signed override that raises a limit before it is reached", () => {
    const d = evaluatePolicy(signingPolicy(), checkpoint({ tool_calls: 25, overrides: [override("max_tool_calls", 30, 5)] }), { keys: KEYS });
    expect(d).toMatchObject({ decision: "continue", reasons: [] });
    expect(d.effective_limits.max_tool_calls).toBe(30);
  });

  it.each([
    ["authorized too late", override("max_tool_calls", 30, 20), 25, "checkpoint override for max_tool_calls was not authorized before exhaustion: observed_value=20 >= 20"],
    ["observed above the metric", override("max_tool_calls", 30, 9), 5, "checkpoint override observed_value for max_tool_calls exceeds current tool_calls: 9 > 5"],
    ["lowering a limit", override("max_tool_calls", 15, 5), 5, "checkpoint override cannot lower max_tool_calls: 15 < 20"],
  ])("refuses an override %s (fail closed)", (_name, o, toolCalls, reason) => {
    const d = evaluatePolicy(signingPolicy(), checkpoint({ tool_calls: toolCalls, overrides: [o] }), { keys: KEYS, policyFileName: "team.policy.json" });
    expect(d).toEqual({
      schema_version: 1,
      policy_id: "team.policy",
      policy_hash: null,
      decision: "stop",
      spawn_allowed: false,
      checkpoint_required: false,
      reasons: [`evaluation_error:${reason}`],
      effective_limits: {},
      observed_metrics: {},
    });
  });

  it("uses the latest decision per gate by timestamp, and refuses ties", () => {
    const declineThenApprove = [decision("H4", "decline", "2026-08-31T00:00:00Z"), decision("H4", "approve", "2026-08-31T00:10:00Z")];
    expect(evaluatePolicy(signingPolicy(), checkpoint({ decisions: declineThenApprove }), { keys: KEYS })).toMatchObject({ decision: "continue", spawn_allowed: true });
    const newerFirst = [decision("H4", "decline", "2026-08-31T00:10:00Z"), decision("H4", "approve", "2026-08-31T00:00:00Z")];
    expect(evaluatePolicy(signingPolicy(), checkpoint({ decisions: newerFirst }), { keys: KEYS }).reasons).toEqual(["human_gate:H4:decline"]);
    // The same instant written two ways is a tie.
    const tie = [decision("H4", "approve", "2026-08-31T02:00:00+02:00"), decision("H4", "decline", "2026-08-31T00:00:00Z")];
    expect(evaluatePolicy(signingPolicy(), checkpoint({ decisions: tie }), { keys: KEYS }).reasons).toEqual(["evaluation_error:checkpoint has ambiguous human decisions for gate H4 at 2026-08-31T00:00:00Z"]);
  });

  it("fails closed on records that are not validly signed", () => {
    const run = (decisions: unknown[], keys = KEYS) => evaluatePolicy(signingPolicy(), checkpoint({ decisions }), { keys }).reasons;
    expect(run([decision("H1", "approve", "2026-08-31T00:00:00Z")], parseHumanKeysJson("{}"))).toEqual(["evaluation_error:checkpoint.decisions[0] has no configured human authorization key: owner"]);
    expect(run([{ ...decision("H1", "decline", "2026-08-31T00:00:00Z"), decision: "approve" }])).toEqual(["evaluation_error:checkpoint.decisions[0] has an invalid human authorization signature"]);
    expect(run([decision("H1", "approve", "2026-08-31T00:00:00Z", "attacker", "agent-chosen")], parseHumanKeysJson('{"attacker": "agent-chosen"}'))).toEqual([
      "evaluation_error:checkpoint.decisions[0] key id is not authorized by the canonical policy: attacker",
    ]);
    expect(evaluatePolicy(signingPolicy(), checkpoint({ decisions: [decision("H1", "approve", "2026-08-31T00:00:00Z")], pending_action_hash: "b".repeat(64) }), { keys: KEYS }).reasons).toEqual([
      "evaluation_error:checkpoint.decisions[0].affected_action_hash must match checkpoint.pending_action_hash",
    ]);
    expect(evaluatePolicy(signingPolicy(), checkpoint({ decisions: [decision("H1", "approve", "2026-08-31T00:00:00Z")], pending_action_hash: undefined }), { keys: KEYS }).reasons[0]).toMatch(/^evaluation_error:/);
  });

  it("keeps Python's int/float distinction in checks and reasons", () => {
    const cp = parsePyJson(JSON.stringify(checkpoint()).replace('"elapsed_seconds":0', '"elapsed_seconds":600.0'));
    expect(evaluatePolicy(samplePolicy(), cp).reasons).toEqual(["limit_reached:elapsed_seconds=600.0:max_elapsed_seconds=600"]);
    const pol = parsePyJson(JSON.stringify(samplePolicy()).replace('"max_cycles":3', '"max_cycles":3.0'));
    expect(evaluatePolicy(pol, checkpoint(), { policyFileName: "policy.json" }).reasons).toEqual(["evaluation_error:policy.limits.max_cycles must be a non-negative integer"]);
    const cp2 = parsePyJson(JSON.stringify(checkpoint()).replace('"cycle":0', '"cycle":1.0'));
    expect(evaluatePolicy(samplePolicy(), cp2).reasons).toEqual(["evaluation_error:checkpoint.cycle must be a non-negative integer"]);
  });

  it("normalizes the portable policy and hashes its source", () => {
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
    const d = evaluatePolicy(portable, checkpoint({ cycle: 3 }));
    expect(d).toMatchObject({ policy_id: "portable-harness-agent-budget-v1", reasons: ["limit_reached:cycle=3:max_cycles=3"] });
    expect(d.policy_hash).toBe("3cb8ae2b3db2c481830e71254071041d25ebd7550638e14e664946852996fdcd"); // hashlib over Python's canonical JSON
    expect(evaluatePolicy({ ...portable, terminal_states: ["running"] }, checkpoint()).reasons).toEqual(["evaluation_error:portable policy.terminal_states must match the supported canonical v1 set"]);
  });

  it("fails closed on unreadable or invalid input, named after the policy file", () => {
    const good = write("good.json", checkpoint());
    const cases: [string, string, string][] = [
      [path.join(tmp, "missing.json"), good, `evaluation_error:cannot read JSON object ${tmp}/missing.json: [Errno 2] No such file or directory: '${tmp}/missing.json'`],
      [write("cut.json", '{"schema_version": 1,'), good, `evaluation_error:cannot read JSON object ${tmp}/cut.json: Expecting property name enclosed in double quotes: line 1 column 22 (char 21)`],
      [write("dup.policy.json", '{"policy_id": "a", "policy_id": "b"}'), good, "evaluation_error:duplicate JSON key: policy_id"],
      [write("list.json", "[]"), good, `evaluation_error:expected JSON object: ${tmp}/list.json`],
      [write("extra.json", { ...samplePolicy(), extra: 1 }), good, "evaluation_error:unexpected policy fields: extra"],
      [POLICY_SAMPLE, write("bad-status.json", checkpoint({ status: "paused" })), "evaluation_error:invalid checkpoint.status: paused"],
      [POLICY_SAMPLE, write("missing-field.json", { ...checkpoint(), tool_calls: undefined }), "evaluation_error:missing checkpoint fields: tool_calls"],
    ];
    for (const [p, c, reason] of cases) {
      const d = evaluatePolicyFiles(p, c);
      expect(d, p).toMatchObject({ decision: "stop", spawn_allowed: false, policy_hash: null, reasons: [reason], effective_limits: {}, observed_metrics: {} });
      expect(evaluateExitCode(d)).toBe(4);
    }
    expect(evaluatePolicyFiles(path.join(tmp, "missing.json"), good).policy_id).toBe("missing");
    expect(evaluatePolicyFiles(POLICY_SAMPLE, good, { loadKeys: () => parseHumanKeysJson("{oops") }).reasons).toEqual(["evaluation_error:AGENT_COLLAB_HUMAN_KEYS_JSON must be a JSON object"]);
  });

  it("derives the fallback policy_id like Path(p).stem.strip()", () => {
    expect(["a/b/policy.json", "x.policy.json", ".coord", "policy.", "  .json", "dir/", undefined].map(fallbackPolicyId)).toEqual([
      "policy",
      "x.policy",
      ".coord",
      "policy.",
      "unreadable-policy",
      "dir",
      "unreadable-policy",
    ]);
  });

  it("holds a schema_version 2 document to the goal rules, checkpoint first (goal-golden has the rest)", () => {
    expect(evaluatePolicy(samplePolicy(), { schema_version: 2 }).reasons[0]).toMatch(/^evaluation_error:goal checkpoint: expected fields \['accepted_evidence', /);
    expect(evaluatePolicy({ schema_version: 2 }, checkpoint()).reasons).toEqual(["evaluation_error:goal policy: expected fields ['base_policy', 'goal_limits', 'policy_id', 'reviewer_reserve', 'schema_version']"]);
    expect(evaluatePolicy({ schema_version: 2 }, { schema_version: 2 }).reasons[0]).toMatch(/^evaluation_error:goal checkpoint: /);
  });
});
