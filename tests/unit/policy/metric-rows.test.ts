import { describe, expect, it } from "vitest";
import { evaluatePolicy } from "../../../lib/policy/evaluate";
import { metricRows } from "../../../lib/policy/metric-rows";
import { checkpoint, samplePolicy } from "./fixtures";

// Sample policy: max_children_per_parent 4, max_concurrency 2, checkpoint_transcript_bytes 100000.
const evaluate = (fields: Record<string, unknown>) => evaluatePolicy(samplePolicy(), checkpoint(fields), { policyFileName: "policy.json" });
const rowsOf = (fields: Record<string, unknown>) => {
  const decision = evaluate(fields);
  return { decision, rows: Object.fromEntries(metricRows(decision).map((r) => [r.metric, r])) };
};

describe("task page metric rows", () => {
  it("show every hard metric, both child counts and the transcript growth, each against its limit", () => {
    const rows = metricRows(evaluate({}));
    expect(rows.map((r) => [r.metric, r.limit])).toEqual([
      ["cycle", "max_cycles"],
      ["tool_calls", "max_tool_calls"],
      ["elapsed_seconds", "max_elapsed_seconds"],
      ["transcript_bytes", "max_transcript_bytes"],
      ["same_failure_retries", "max_same_failure_retries"],
      ["no_evidence_cycles", "max_no_evidence_cycles"],
      ["task_packet_tokens", "max_task_packet_tokens"],
      ["parent_summary_tokens", "max_parent_summary_tokens"],
      ["memory_digest_tokens", "max_memory_digest_tokens"],
      ["child_result_words", "max_child_result_words"],
      ["children_spawned", "max_children_per_parent"],
      ["active_children", "max_concurrency"],
      ["transcript_growth", "checkpoint_transcript_bytes"],
    ]);
    expect(rows.every((r) => r.state === "under" && !r.reached)).toBe(true);
  });

  it.each([
    ["children_spawned", "max_children_per_parent", 4],
    ["active_children", "max_concurrency", 2],
  ] as const)("%s: under below the limit, spawning blocked at it, stop past it, as the evaluator decides", (metric, limit, max) => {
    const below = rowsOf({ [metric]: max - 1 });
    expect(below.rows[metric]).toMatchObject({ observed: max - 1, max, limit, state: "under", reached: false });
    expect(below.decision).toMatchObject({ decision: "continue", spawn_allowed: true });

    const at = rowsOf({ [metric]: max });
    expect(at.rows[metric]).toMatchObject({ observed: max, max, state: "spawn_blocked", reached: true });
    expect(at.decision).toMatchObject({ decision: "continue", spawn_allowed: false, reasons: [] });

    const past = rowsOf({ [metric]: max + 1 });
    expect(past.rows[metric]).toMatchObject({ observed: max + 1, state: "exceeded", reached: true });
    expect(past.decision).toMatchObject({ decision: "stop", spawn_allowed: false, reasons: [`limit_exceeded:${metric}=${max + 1}:${limit}=${max}`] });
  });

  it("transcript growth: transcript_bytes - last_checkpoint_transcript_bytes, a checkpoint once it reaches the limit", () => {
    const due = rowsOf({ transcript_bytes: 150000, last_checkpoint_transcript_bytes: 50000 });
    expect(due.rows.transcript_growth).toMatchObject({ observed: 100000, max: 100000, state: "checkpoint_due", reached: true });
    expect(due.decision).toMatchObject({ decision: "checkpoint", checkpoint_required: true });
    const under = rowsOf({ transcript_bytes: 149999, last_checkpoint_transcript_bytes: 50000 });
    expect(under.rows.transcript_growth).toMatchObject({ observed: 99999, state: "under" });
    expect(under.decision.decision).toBe("continue");
    // The transcript itself is still a hard metric of its own.
    expect(due.rows.transcript_bytes).toMatchObject({ observed: 150000, max: 200000, state: "under" });
  });

  it("never disagree with the decision: a stopping row means stop, a spawn-blocking row means no spawning", () => {
    const cases: Record<string, unknown>[] = [
      {},
      { cycle: 3 },
      { tool_calls: 19 },
      { children_spawned: 4, active_children: 1 },
      { active_children: 3 },
      { transcript_bytes: 100000 },
      { elapsed_seconds: 600, children_spawned: 5 },
    ];
    for (const fields of cases) {
      const { decision, rows } = rowsOf(fields);
      const all = Object.values(rows);
      const stops = all.some((r) => r.state === "reached" || r.state === "exceeded");
      expect(stops, JSON.stringify(fields)).toBe(decision.reasons.some((r) => r.startsWith("limit_")));
      if (all.some((r) => r.state === "spawn_blocked" || r.state === "exceeded")) expect(decision.spawn_allowed).toBe(false);
      expect(rows.transcript_growth!.state === "checkpoint_due" && !stops).toBe(decision.decision === "checkpoint");
    }
  });

  it("show no observation for a fail-closed decision", () => {
    const rows = metricRows(evaluatePolicy(null, checkpoint(), { policyFileName: "policy.json" }));
    expect(rows).toHaveLength(13);
    expect(rows.every((r) => r.observed === null && r.max === null && r.state === "under")).toBe(true);
  });
});
