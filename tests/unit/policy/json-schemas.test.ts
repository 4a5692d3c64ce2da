/**
 * The evaluator's output and the sample checkpoint against the harness's own JSON schemas
 * (copied from the reference fixtures into harness-schemas/), so "matches the reference" does
 * not rest on our zod schemas alone.
 */
import fs from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { pyJsonDumps } from "../../../lib/memory/canonical-json";
import { isAwareTimestamp } from "../../../lib/memory/timestamp";
import { evaluatePolicy, evaluatePolicyFiles } from "../../../lib/policy/evaluate";
import { loadHumanKeys } from "../../../lib/memory/keys";
import { parsePyJson } from "../../../lib/memory/py-json";
import { goalDecisionV2Schema, policyDecisionV1Schema } from "../../../lib/policy/schemas";
import { loadGoldenCases } from "../../helpers/goal-golden";
import { CHECKPOINT_SAMPLE, KEYS, POLICY_SAMPLE, checkpoint, decision, override, samplePolicy, signingPolicy } from "./fixtures";

const schema = (name: string) => JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "harness-schemas", name), "utf8")) as object;
// ajv knows no formats by itself; "date-time" is checked with the same rule the harness applies (aware ISO 8601).
const ajv = new Ajv2020({ allErrors: true, strict: true, formats: { "date-time": isAwareTimestamp } });
const decisionV1 = ajv.compile(schema("policy-decision-1.json"));
const decisionV2 = ajv.compile(schema("policy-decision-2.json"));
const checkpointV1 = ajv.compile(schema("task-checkpoint-1.json"));

/** The decision as the CLI prints it (Python's JSON), read back. */
const printed = (d: unknown) => JSON.parse(pyJsonDumps(d, { indent: 2, sortKeys: true })) as unknown;

describe("harness JSON schemas", () => {
  it("accept the sample checkpoint and signed records, and refuse a bad status or timestamp", () => {
    const sample = JSON.parse(fs.readFileSync(CHECKPOINT_SAMPLE, "utf8"));
    expect(checkpointV1(sample), JSON.stringify(checkpointV1.errors)).toBe(true);
    expect(checkpointV1(checkpoint({ decisions: [decision("H1", "approve", "2026-08-31T00:00:00Z")], overrides: [override("max_cycles", 5, 0)] })), JSON.stringify(checkpointV1.errors)).toBe(true);
    expect(checkpointV1({ ...sample, status: "paused" })).toBe(false);
    expect(checkpointV1({ ...sample, updated_at: "yesterday" })).toBe(false);
  });

  it("accept every PolicyDecision v1 the evaluator produces: continue, checkpoint, stop and fail-closed", () => {
    const results = [
      evaluatePolicyFiles(POLICY_SAMPLE, CHECKPOINT_SAMPLE),
      evaluatePolicy(samplePolicy(), checkpoint({ transcript_bytes: 150000, last_checkpoint_transcript_bytes: 50000 })),
      evaluatePolicy(samplePolicy(), checkpoint({ children_spawned: 5, active_children: 3, elapsed_seconds: 75.5 })),
      evaluatePolicy(signingPolicy(), checkpoint({ cycle: 9, tool_calls: 3, decisions: [decision("H1", "decline", "2026-08-31T00:00:00Z")], overrides: [override("max_tool_calls", 25, 1)] }), { keys: KEYS }),
      evaluatePolicy(null, null, { policyFileName: "x.json" }),
    ];
    expect(results.map((r) => r.decision)).toEqual(["continue", "checkpoint", "stop", "stop", "stop"]);
    expect(results[3]!.reasons).toEqual(["human_gate:H1:decline", "limit_reached:cycle=9:max_cycles=3"]);
    expect(results[3]!.effective_limits.max_tool_calls).toBe(25);
    for (const r of results) {
      expect(decisionV1(printed(r)), JSON.stringify(decisionV1.errors)).toBe(true);
      // Our zod schema agrees with the reference's.
      expect(policyDecisionV1Schema.safeParse(printed(r)).success).toBe(true);
    }
    expect(decisionV1({ ...(printed(results[0]) as object), decision: "pause" })).toBe(false);
    expect(decisionV1({ ...(printed(results[0]) as object), policy_hash: "ABC" })).toBe(false);
  });

  it("accept every GoalDecision v2 the evaluator produces for the golden goal documents", () => {
    let checked = 0;
    for (const c of loadGoldenCases("cases.json").filter((x) => x.command === "evaluate")) {
      const arg = (flag: string) => c.files[c.args[c.args.indexOf(flag) + 1]!];
      const policy = arg("--policy");
      const cp = arg("--checkpoint");
      if (policy === undefined || cp === undefined) continue;
      let docs: [unknown, unknown];
      try {
        docs = [parsePyJson(policy), parsePyJson(cp)];
      } catch {
        continue;
      }
      const d = evaluatePolicy(docs[0], docs[1], { loadKeys: () => loadHumanKeys({ env: c.env ?? {} }), policyFileName: "goal.policy.json" });
      if (d.schema_version !== 2) continue;
      checked += 1;
      expect(decisionV2(printed(d)), `${c.name}: ${JSON.stringify(decisionV2.errors)}`).toBe(true);
      expect(goalDecisionV2Schema.safeParse(printed(d)).success, c.name).toBe(true);
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("agree with our GoalDecision v2 schema on what a GoalDecision is", () => {
    const totals = { cycle: 1, tool_calls: 2, elapsed_seconds: 3.5, children_spawned: 0, input_tokens: null, cached_input_tokens: 10, output_tokens: null, cost_microusd: null };
    const good = {
      schema_version: 2,
      policy_id: "p-goals",
      policy_hash: null,
      decision: "checkpoint",
      spawn_allowed: false,
      checkpoint_required: true,
      reasons: ["slice_limit:cycle"],
      effective_limits: { max_cycles: 3 },
      observed_metrics: totals,
      scope: "slice",
      auto_continue: true,
    };
    const cases = [good, { ...good, scope: "task" }, { ...good, observed_metrics: { ...totals, cycle: -1 } }, { ...good, auto_continue: "yes" }, { ...good, reasons: [" "] }];
    expect(cases.map((c) => decisionV2(c))).toEqual([true, false, false, false, false]);
    expect(cases.map((c) => goalDecisionV2Schema.safeParse(c).success)).toEqual([true, false, false, false, false]);
  });
});
