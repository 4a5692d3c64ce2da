import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { canonicalSha256 } from "../../../lib/memory/canonical-json";
import { applyProposal } from "../../../lib/memory/apply";
import { readCoord } from "../../../lib/memory/coord";
import { decideProposalFile } from "../../../lib/memory/decide";
import { goldenCase } from "../../helpers/goal-golden";
import { ADD_ID, KEY_ID, SUPERSEDE_ID, keys, projectPolicy, removeCopies, sampleCopy } from "./helpers";

afterAll(removeCopies);

const coord = (root: string, rel: string) => path.join(root, ".coord", rel);

function packet(policyHash: string): string {
  return [
    "# Context packet — define-auth-contract",
    "",
    "Policy",
    "- policy_ref: .coord/policy.json",
    `- policy_hash: ${policyHash}`,
    "- checkpoint_ref: .coord/checkpoints/define-auth-contract.json",
    "",
    "Goal",
    "Lock the AuthProvider interface before code changes begin.",
    "",
    "Recorded decisions",
    "- H0 / human:priya / approve / " + "a".repeat(64),
    "",
    "Evidence",
    "- src/auth/SessionService.ts",
    "",
    "Scope",
    "- may read: src/auth/**",
    "- may write: docs/auth-contract.md",
    "- must not touch: src/billing/**",
    "",
    "Acceptance",
    "- npm test -- auth",
    "",
    "Return contract",
    "- concise summary",
    "- raw logs by path only",
    "",
  ].join("\n");
}

function goalCheckpoint(task: Record<string, unknown>) {
  const zeros = { cycle: 0, tool_calls: 0, elapsed_seconds: 0, children_spawned: 0, input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, cost_microusd: 0 };
  return {
    schema_version: 2,
    task_id: task.task_id,
    goal_id: "auth-refactor",
    slice_id: 0,
    task,
    totals: { ...zeros, input_tokens: null, cached_input_tokens: null, output_tokens: null, cost_microusd: null },
    baseline: zeros,
    usage: { input_tokens: null, cached_input_tokens: null, output_tokens: null, cost_microusd: null },
    accepted_evidence: [],
    history: [],
    next_step: "define the provider interface",
    action_kind: "execute",
    review_required: false,
    requires_human: false,
    source_sha256: canonicalSha256(task),
    failure_history: [],
    active_failure: null,
  };
}

describe("readCoord", () => {
  it("reads every .coord file of the sample project without errors", async () => {
    const root = sampleCopy();
    const policyDoc = JSON.parse(fs.readFileSync(coord(root, "policy.json"), "utf8"));
    const checkpoint = JSON.parse(fs.readFileSync(coord(root, "checkpoints/define-auth-contract.json"), "utf8"));
    fs.writeFileSync(coord(root, "context_001.md"), packet(canonicalSha256(policyDoc)));
    fs.writeFileSync(coord(root, "session_primer.md"), "# Primer\nGoal: auth contract.\nCurrent state: T1 done.\nDecisions: M1 (human:priya).\nOpen questions: M2.\nEvidence: docs/decisions/.\nNext step: T2.\n");
    fs.writeFileSync(coord(root, "checkpoints/goal.json"), JSON.stringify(goalCheckpoint(checkpoint), null, 2));
    fs.writeFileSync(
      coord(root, "portable.policy.json"),
      JSON.stringify({
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
      }),
    );

    const snap = await readCoord(root, { keys });
    expect(snap.errors).toEqual([]);
    expect(snap.proposals.map((p) => [p.proposal.proposal_id, p.proposal.state, p.appliedAs, p.evidence.every((e) => e.status === "present")])).toEqual([
      [ADD_ID, "proposed", null, true],
      [SUPERSEDE_ID, "proposed", null, true],
    ]);
    expect(snap.memory?.events.map((e) => e.event_id)).toEqual(["M1", "M2"]);
    expect(snap.memory?.view.openQuestions.map((e) => e.event_id)).toEqual(["M2"]);
    expect(snap.checkpoints.map((c) => [c.file, c.version])).toEqual([
      [".coord/checkpoints/define-auth-contract.json", 1],
      [".coord/checkpoints/goal.json", 2],
    ]);
    expect(snap.policies.map((p) => [p.file, p.form, p.policy.policy_id, p.policyHash])).toEqual([
      [".coord/policy.json", "v1", "example-policy", canonicalSha256(policyDoc)],
      [".coord/portable.policy.json", "portable", "portable-harness-agent-budget-v1", expect.stringMatching(/^[a-f0-9]{64}$/)],
    ]);
    expect(snap.packets).toEqual([
      expect.objectContaining({ number: 1, taskId: "define-auth-contract", policyRef: ".coord/policy.json", scope: { mayRead: "src/auth/**", mayWrite: "docs/auth-contract.md", mustNotTouch: "src/billing/**" } }),
    ]);
    expect(snap.primer?.topics).toEqual(["goal", "current state", "decisions", "open questions", "evidence", "next step"]);
    expect(snap.lock).toBeNull();
  });

  it("reports each broken file with file, field and line, and still reads the others", async () => {
    const root = sampleCopy();
    // A supersede proposal without target, stored under the wrong name.
    const sup = JSON.parse(fs.readFileSync(coord(root, `memory-proposals/${SUPERSEDE_ID}.json`), "utf8"));
    sup.action.target_ref = null;
    fs.writeFileSync(coord(root, "memory-proposals/00000000-0000-4000-8000-000000000001.json"), JSON.stringify(sup, null, 2));
    fs.rmSync(coord(root, `memory-proposals/${SUPERSEDE_ID}.json`));
    // An event type that does not exist.
    fs.writeFileSync(coord(root, "memory.yml"), fs.readFileSync(coord(root, "memory.yml"), "utf8").replace("event_type: open_question", "event_type: rumour"));
    // A checkpoint with a negative counter and one cut off mid-file.
    const cp = JSON.parse(fs.readFileSync(coord(root, "checkpoints/define-auth-contract.json"), "utf8"));
    fs.writeFileSync(coord(root, "checkpoints/define-auth-contract.json"), JSON.stringify({ ...cp, tool_calls: -1 }, null, 2));
    fs.writeFileSync(coord(root, "checkpoints/cut.json"), '{\n  "schema_version": 1,\n  "task_id": "x",\n');
    // A policy whose limits contradict each other.
    const pol = JSON.parse(fs.readFileSync(coord(root, "policy.json"), "utf8"));
    pol.limits.max_concurrency = 9;
    fs.writeFileSync(coord(root, "policy.json"), JSON.stringify(pol, null, 2));
    // A packet missing its Scope section.
    fs.writeFileSync(coord(root, "context_002.md"), packet("b".repeat(64)).replace(/Scope\n(- .*\n)+/, ""));

    const snap = await readCoord(root);
    const found = snap.errors.filter((e) => e.severity !== "warning").map((e) => [e.file, e.field, e.line]);
    expect(found).toEqual([
      [".coord/memory.yml", "events.1.event_type", 25],
      [".coord/policy.json", "limits.max_concurrency", 18],
      [".coord/checkpoints/cut.json", undefined, 4],
      [".coord/checkpoints/define-auth-contract.json", "tool_calls", 7],
      [".coord/memory-proposals/00000000-0000-4000-8000-000000000001.json", "action.target_ref", 7],
      [".coord/context_002.md", "Scope", undefined],
    ]);
    // The valid rest is still there.
    expect(snap.proposals.map((p) => p.proposal.proposal_id)).toEqual([ADD_ID]);
    expect(snap.memory?.events.map((e) => e.event_id)).toEqual(["M1"]);
    expect(snap.packets.map((p) => p.number)).toEqual([2]);
  });

  it("links applied proposals to their event, and reports a renamed proposal file and a decision that no longer matches its action", async () => {
    const root = sampleCopy();
    const policy = projectPolicy(root);
    await decideProposalFile(root, SUPERSEDE_ID, { decision: "approve", rationale: "ok", keyId: KEY_ID }, { keys, policy });
    await applyProposal(root, SUPERSEDE_ID, { keys, policy, taskId: "t" });
    const applied = await readCoord(root, { keys });
    expect(applied.errors).toEqual([]);
    expect(applied.proposals.map((p) => [p.proposal.state, p.appliedAs, p.verification?.ok ?? null])).toEqual([
      ["proposed", null, null],
      ["approved", "M3", true],
    ]);
    expect(applied.memory?.view.entries[0]!.status).toBe("superseded");

    await decideProposalFile(root, ADD_ID, { decision: "approve", rationale: "ok", keyId: KEY_ID }, { keys, policy });
    const file = coord(root, `memory-proposals/${ADD_ID}.json`);
    const p = JSON.parse(fs.readFileSync(file, "utf8"));
    p.action.summary = "changed after approval";
    fs.writeFileSync(file, JSON.stringify(p, null, 2));
    fs.renameSync(coord(root, `memory-proposals/${SUPERSEDE_ID}.json`), coord(root, "memory-proposals/e27b9c40-5f18-4a3d-8e6c-000000000000.json"));
    const snap = await readCoord(root, { keys });
    expect(snap.errors.map((e) => [e.file.split("/").pop(), e.field, e.line])).toEqual([
      [`${ADD_ID}.json`, "decision.affected_action_hash", 22],
      ["e27b9c40-5f18-4a3d-8e6c-000000000000.json", "proposal_id", 3],
    ]);
  });

  it("reports a broken GoalCheckpoint v2 and a broken session primer per file, with field and line", async () => {
    const root = sampleCopy();
    const task = JSON.parse(fs.readFileSync(coord(root, "checkpoints/define-auth-contract.json"), "utf8"));
    // slice_id 1 with an empty history, and the embedded task with a negative counter.
    fs.writeFileSync(coord(root, "checkpoints/goal.json"), JSON.stringify({ ...goalCheckpoint({ ...task, cycle: -1 }), slice_id: 1 }, null, 2));
    fs.writeFileSync(coord(root, "checkpoints/goal-ok.json"), JSON.stringify(goalCheckpoint(task), null, 2));
    fs.writeFileSync(
      coord(root, "session_primer.md"),
      "# Session primer\n\n## Goal\n- auth contract\n\n## Current state\n\n## Decisions and who made them\n- Use the AuthProvider interface.\n\n## Evidence paths\n- docs/decisions/\n\n## Next step\n- T2\n",
    );

    const snap = await readCoord(root);
    expect(snap.errors.filter((e) => e.severity !== "warning").map((e) => [e.file, e.field, e.line])).toEqual([
      [".coord/checkpoints/goal.json", "task.cycle", 11],
      [".coord/checkpoints/goal.json", "slice_id", 5],
      [".coord/session_primer.md", "current state", 6],
      [".coord/session_primer.md", "open questions", undefined],
      [".coord/session_primer.md", "decisions", 9],
    ]);
    expect(snap.errors.find((e) => e.field === "open questions")!.message).toContain('the primer has no "Open questions" section');
    // The valid rest is still read.
    expect(snap.checkpoints.map((c) => [c.file, c.version])).toEqual([
      [".coord/checkpoints/define-auth-contract.json", 1],
      [".coord/checkpoints/goal-ok.json", 2],
    ]);
    expect(snap.primer?.topics).toEqual(["goal", "current state", "decisions", "evidence", "next step"]);
  });

  it("reads a goal policy (v2) by its own rules: valid, it is listed with its base's limits and pins; invalid, its faults are named", async () => {
    const root = sampleCopy();
    const c = goldenCase("worked: cycle at the slice cap, fresh evidence, next step, no child");
    fs.writeFileSync(coord(root, "goal.policy.json"), c.policy);
    let snap = await readCoord(root);
    expect(snap.errors).toEqual([]);
    const goal = snap.policies.find((p) => p.file === ".coord/goal.policy.json")!;
    expect(goal).toMatchObject({
      form: "goal",
      policyId: "test-policy-goals",
      policyHash: JSON.parse(c.stdout).policy_hash,
      policy: { policy_id: "test-policy", limits: { max_cycles: 3 } },
      goal: { reviewer_reserve: 1, goal_limits: {} },
    });
    expect(Object.keys(goal.policy.human_authorization.key_hashes)).toEqual(["owner"]);

    const notGoal = { schema_version: 2, policy_id: "goal-policy", human_authorization: { key_hashes: {} }, goal_limits: { max_slices: 5 }, slice_limits: { max_cycles: 3 } };
    fs.writeFileSync(coord(root, "goal.policy.json"), JSON.stringify(notGoal, null, 2));
    snap = await readCoord(root);
    expect(snap.policies.map((p) => p.file)).toEqual([".coord/policy.json"]);
    expect(snap.errors.every((e) => e.file === ".coord/goal.policy.json" && e.severity === undefined)).toBe(true);
    expect(snap.errors.map((e) => e.field)).toEqual(expect.arrayContaining(["base_policy", "reviewer_reserve"]));
    // Schema-valid but refused by the reference's own rule (Python's strip() empties U+001C): named in its words.
    const doc = JSON.parse(c.policy) as Record<string, unknown>;
    fs.writeFileSync(coord(root, "goal.policy.json"), JSON.stringify({ ...doc, base_policy: { ...(doc.base_policy as object), policy_id: "\u001c" } }));
    snap = await readCoord(root);
    expect(snap.errors).toEqual([expect.objectContaining({ file: ".coord/goal.policy.json", message: ".coord/goal.policy.json: policy.policy_id must be a non-empty string" })]);
  });

  it("refuses a GoalCheckpoint the reference refuses, though its schema holds", async () => {
    const root = sampleCopy();
    const task = JSON.parse(fs.readFileSync(coord(root, "checkpoints/define-auth-contract.json"), "utf8"));
    fs.writeFileSync(
      coord(root, "checkpoints/goal.json"),
      JSON.stringify({ ...goalCheckpoint(task), baseline: { cycle: 1, tool_calls: 0, elapsed_seconds: 0, children_spawned: 0, input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, cost_microusd: 0 } }),
    );
    const snap = await readCoord(root);
    expect(snap.errors).toEqual([expect.objectContaining({ file: ".coord/checkpoints/goal.json", message: ".coord/checkpoints/goal.json: totals must equal baseline plus slice" })]);
    expect(snap.checkpoints.map((c) => c.file)).toEqual([".coord/checkpoints/define-auth-contract.json"]);
  });

  it("reports a proposal's leftover decision lock as a warning with its holder", async () => {
    const root = sampleCopy();
    const lock = coord(root, `memory-proposals/${ADD_ID}.json.lock`);
    fs.writeFileSync(lock, JSON.stringify({ owner: "4242@some-other-host", created_at: "2026-02-10T12:00:00Z", task_id: "workbench-review", proposal_id: ADD_ID, token: "x" }));
    const snap = await readCoord(root, { now: new Date("2026-02-10T13:00:00Z") });
    expect(snap.proposalLocks).toEqual([
      {
        file: `.coord/memory-proposals/${ADD_ID}.json.lock`,
        status: expect.objectContaining({ stale: true, ageMs: 3_600_000, record: expect.objectContaining({ owner: "4242@some-other-host", task_id: "workbench-review", proposal_id: ADD_ID }) }),
      },
    ]);
    expect(snap.errors).toEqual([
      { file: `.coord/memory-proposals/${ADD_ID}.json.lock`, severity: "warning", message: expect.stringMatching(/being recorded or was cut off; the lock is held by 4242@some-other-host .* looks stale/) },
    ]);
    // The proposal itself is still read.
    expect(snap.proposals.map((p) => p.proposal.proposal_id)).toEqual([ADD_ID, SUPERSEDE_ID]);
  });
});
