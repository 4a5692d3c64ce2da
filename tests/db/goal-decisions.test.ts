/**
 * GoalCheckpoints v2 in a project: the task evaluations (what the task page, the API and the MCP
 * tools show) are the reference's GoalDecision byte for byte, the CLI on the same files agrees,
 * and a human's signed decision at a goal gate goes through the proposal approval flow (a pinned
 * key on the server, a lock, an atomic write) and changes the decision.
 */
import fs from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { POST as gateDecisionRoute } from "../../app/api/v1/projects/[id]/tasks/[taskId]/gate-decision/route";
import { GET as tasksRoute } from "../../app/api/v1/projects/[id]/tasks/route";
import { pyJsonDumps } from "../../lib/memory/canonical-json";
import { verifyRecord } from "../../lib/memory/decision-record";
import { decideGoalGate, goalGateSigners, memoryDesk, taskEvaluations } from "../../lib/memory/desk";
import { parsePyJson } from "../../lib/memory/py-json";
import { createWorkbenchMcpServer } from "../../lib/mcp/server";
import { validateGoalCheckpoint, validateGoalPolicy } from "../../lib/policy/goal-validate";
import { addProject } from "../../lib/projects/add-project";
import { GOLDEN_KEYS_JSON, goldenCase } from "../helpers/goal-golden";
import { copySampleProject, removeTempDirs } from "../helpers/project-builder";
import { runWorkbench } from "../helpers/run-cli";

afterAll(removeTempDirs);
const saved = { json: process.env.AGENT_COLLAB_HUMAN_KEYS_JSON, file: process.env.WORKBENCH_HUMAN_KEYS_FILE };
afterEach(() => {
  for (const [k, v] of [
    ["AGENT_COLLAB_HUMAN_KEYS_JSON", saved.json],
    ["WORKBENCH_HUMAN_KEYS_FILE", saved.file],
  ] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

const SLICE = goldenCase("worked: cycle at the slice cap, fresh evidence, next step, no child");
const COST = goldenCase("worked: goal limits on cost and tool calls, cost unknown");
const DECLINE = goldenCase("worked: signed decline while the cycle is at the slice cap");
const HUMAN = goldenCase("worked: requires_human, otherwise healthy");

/** A golden checkpoint under another task id (task_id is not part of the decision), numbers kept as written. */
function retask(text: string, taskId: string, edit: (doc: Record<string, any>) => void = () => {}): string {
  const doc = parsePyJson(text) as Record<string, any>;
  doc.task_id = taskId;
  doc.task.task_id = taskId;
  edit(doc);
  return pyJsonDumps(doc, { indent: 2, sortKeys: false }) + "\n";
}

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describe("goal decisions of a project", () => {
  let root = "";
  let projectId = "";
  const coord = (rel: string) => path.join(root, ".coord", rel);

  beforeAll(async () => {
    root = copySampleProject();
    fs.writeFileSync(coord("goals.policy.json"), SLICE.policy);
    fs.writeFileSync(coord("checkpoints/goal-slice.json"), retask(SLICE.checkpoint, "goal-slice"));
    fs.writeFileSync(coord("checkpoints/goal-human.json"), retask(HUMAN.checkpoint, "goal-human"));
    // The decline case's task without its decision: the human records it through the Workbench below.
    fs.writeFileSync(
      coord("checkpoints/goal-gate.json"),
      retask(DECLINE.checkpoint, "goal-gate", (d) => (d.task.decisions = [])),
    );
    projectId = (await addProject({ path: root })).id;
  });

  it("evaluates each checkpoint against a policy of its own kind, a goal exactly as the reference prints it", async () => {
    process.env.AGENT_COLLAB_HUMAN_KEYS_JSON = GOLDEN_KEYS_JSON;
    const tasks = await taskEvaluations(projectId);
    const byTask = new Map(tasks.map((t) => [t.taskId, t]));
    // The TaskCheckpoint v1 keeps the v1 .coord/policy.json; the goals take the goal policy.
    expect(byTask.get("define-auth-contract")).toMatchObject({ version: 1, policyFile: ".coord/policy.json", exitCode: 0, goal: null, outcome: { scope: null, auto_continue: null } });
    const slice = byTask.get("goal-slice")!;
    expect(slice).toMatchObject({ version: 2, policyFile: ".coord/goals.policy.json", exitCode: 3 });
    expect(slice.outcome).toMatchObject({ decision: "checkpoint", scope: "slice", auto_continue: true, spawn_allowed: false, checkpoint_required: true });
    expect(slice.decisionJson).toBe(SLICE.stdout);
    expect(slice.decision).toEqual(JSON.parse(SLICE.stdout));
    expect(byTask.get("goal-human")!.decisionJson).toBe(HUMAN.stdout);
  });

  it("the CLI, the API route and the MCP tools hand out the same decision bytes", async () => {
    process.env.AGENT_COLLAB_HUMAN_KEYS_JSON = GOLDEN_KEYS_JSON;
    const slice = (await taskEvaluations(projectId)).find((t) => t.taskId === "goal-slice")!;
    const cli = await runWorkbench(["policy", "evaluate", "--policy", coord("goals.policy.json"), "--checkpoint", coord("checkpoints/goal-slice.json"), "--json"], { env: process.env });
    expect(cli.stdout).toBe(slice.decisionJson);
    expect(cli.code).toBe(3);

    const res = await tasksRoute(new Request(`http://127.0.0.1:3000/api/v1/projects/${projectId}/tasks`), { params: Promise.resolve({ id: projectId }) });
    const api = (await res.json()) as { tasks: { taskId: string; decisionJson: string; exitCode: number; outcome: { scope: string } }[] };
    expect(api.tasks.find((t) => t.taskId === "goal-slice")).toMatchObject({ decisionJson: SLICE.stdout, exitCode: 3, outcome: { scope: "slice" } });

    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createWorkbenchMcpServer().connect(serverSide);
    const client = new Client({ name: "goal-test", version: "1.0.0" });
    await client.connect(clientSide);
    try {
      const listed = (await client.callTool({ name: "task_decisions", arguments: { project: projectId, task_id: "goal-slice" } })) as CallToolResult;
      expect(listed.isError).toBeFalsy();
      const fromProject = JSON.parse(text(listed)) as { tasks: { decision_json: string; exit_code: number; reasons_in_words: string[] }[] };
      expect(fromProject.tasks).toHaveLength(1);
      expect(fromProject.tasks[0]).toMatchObject({ decision_json: SLICE.stdout, exit_code: 3 });
      expect(fromProject.tasks[0]!.reasons_in_words[0]).toMatch(/^Slice boundary: cycle reached max_cycles \(3\)/);
      const direct = (await client.callTool({ name: "evaluate_policy", arguments: { policy_json: COST.policy, checkpoint_json: COST.checkpoint, policy_name: "goal.policy.json" } })) as CallToolResult;
      expect(JSON.parse(text(direct))).toMatchObject({ decision_json: COST.stdout, exit_code: 4, decision: { scope: "goal", reasons: ["goal_limit:cost_microusd:unknown_or_reached"] } });
      const mismatch = (await client.callTool({
        name: "evaluate_policy",
        arguments: { policy_json: fs.readFileSync(coord("policy.json"), "utf8"), checkpoint_json: SLICE.checkpoint, policy_name: "policy.json" },
      })) as CallToolResult;
      expect(JSON.parse(text(mismatch)).decision_json).toBe(goldenCase("worked: v2 checkpoint with a v1 policy").stdout);
    } finally {
      await client.close();
    }
  });

  it("shows the goal's parts: totals against goal limits, slice boundaries, compaction, requires_human, review reserve", async () => {
    process.env.AGENT_COLLAB_HUMAN_KEYS_JSON = GOLDEN_KEYS_JSON;
    const tasks = await taskEvaluations(projectId);
    const slice = tasks.find((t) => t.taskId === "goal-slice")!.goal!;
    expect(slice.slice.map((s) => [s.counter, s.value, s.max, s.reached])).toEqual([
      ["cycle", 3, 3, true],
      ["tool_calls", 0, 10, false],
      ["elapsed_seconds", 0, 60, false],
      ["children_spawned", 0, 4, false],
    ]);
    expect(slice.totals.find((t) => t.name === "cost_microusd")).toEqual({ name: "cost_microusd", total: null, limit: null, state: "no_limit" });
    expect(slice).toMatchObject({ pendingCompaction: false, requiresHuman: false, freshEvidence: ["test:passing"], reserve: { policyReserve: 1, inEffect: 0, childrenSpawned: 0, maxChildren: 4, executorRoom: 4 } });
    const human = tasks.find((t) => t.taskId === "goal-human")!;
    expect(human.goal!.requiresHuman).toBe(true);
    expect(human.reasons).toEqual([{ reason: "human_authorization_required", words: expect.stringMatching(/requires_human.*does not clear it/) }]);
  });

  it("signs a goal gate decision on the server into the checkpoint, and the decision follows it", async () => {
    delete process.env.AGENT_COLLAB_HUMAN_KEYS_JSON;
    delete process.env.WORKBENCH_HUMAN_KEYS_FILE;
    const file = ".coord/checkpoints/goal-gate.json";
    const before = fs.readFileSync(coord("checkpoints/goal-gate.json"), "utf8");
    expect((await goalGateSigners(projectId)).keyProblem).toMatch(/no approver key/);
    await expect(decideGoalGate(projectId, "goal-gate", { file, gate: "danger", decision: "decline", rationale: "Not authorized", keyId: "owner" })).rejects.toMatchObject({ code: "GATE_REFUSED" });

    process.env.AGENT_COLLAB_HUMAN_KEYS_JSON = JSON.stringify({ owner: "test-owner-secret", eve: "not-pinned" });
    expect((await goalGateSigners(projectId)).signers).toEqual([
      { keyId: "eve", pinned: false, reason: "key_not_pinned" },
      { keyId: "owner", pinned: true },
    ]);
    // A key the goal policy does not pin cannot sign; nothing is written.
    await expect(decideGoalGate(projectId, "goal-gate", { file, gate: "danger", decision: "decline", rationale: "x", keyId: "eve" })).rejects.toMatchObject({
      code: "GATE_REFUSED",
      message: expect.stringContaining("does not pin"),
    });
    expect(fs.readFileSync(coord("checkpoints/goal-gate.json"), "utf8")).toBe(before);
    // Before: the cycle is at the slice cap with fresh evidence, so the slice would advance on its own.
    expect((await taskEvaluations(projectId)).find((t) => t.taskId === "goal-gate")!.outcome).toMatchObject({ decision: "checkpoint", scope: "slice", auto_continue: true });

    // The approver's decline, through the API route (local mode: the person at this machine is the approver).
    const res = await gateDecisionRoute(
      new Request(`http://127.0.0.1:3000/api/v1/projects/${projectId}/tasks/goal-gate/gate-decision`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ file, gate: "danger", decision: "decline", rationale: "Not authorized", keyId: "owner" }),
      }),
      { params: Promise.resolve({ id: projectId, taskId: "goal-gate" }) },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const stored = parsePyJson(fs.readFileSync(coord("checkpoints/goal-gate.json"), "utf8")) as Record<string, any>;
    const record = stored.task.decisions[0];
    expect(record).toMatchObject({
      gate: "danger",
      actor: "human:owner",
      decision: "decline",
      rationale: "Not authorized",
      affected_action_hash: "a".repeat(64),
      authorization: { scheme: "hmac-sha256", key_id: "owner" },
    });
    expect(JSON.stringify(stored)).not.toContain("test-owner-secret");
    const policy = validateGoalPolicy(parsePyJson(SLICE.policy));
    const keys = (await import("../../lib/memory/keys")).parseHumanKeysJson(GOLDEN_KEYS_JSON);
    expect(verifyRecord(record, policy.base, keys, { expectedActionHash: stored.task.pending_action_hash })).toEqual({ ok: true, keyId: "owner" });
    expect(() => validateGoalCheckpoint(stored)).not.toThrow();
    // Everything else in the file is as it was.
    expect({ ...stored, task: { ...stored.task, decisions: [] } }).toEqual(parsePyJson(before));

    // The decision is now the reference's for a signed decline at the slice cap, and the CLI agrees.
    const gate = (await taskEvaluations(projectId)).find((t) => t.taskId === "goal-gate")!;
    expect(gate.outcome).toMatchObject({ decision: "stop", scope: "goal", auto_continue: false, reasons: ["human_gate:danger:decline"] });
    expect(gate.decisionJson).toBe(DECLINE.stdout);
    expect(gate.goal!.gates).toEqual([{ gate: "danger", decision: "decline", actor: "human:owner", timestamp: record.timestamp, rationale: "Not authorized", records: 1 }]);
    const cli = await runWorkbench(["policy", "evaluate", "--policy", coord("goals.policy.json"), "--checkpoint", coord("checkpoints/goal-gate.json"), "--json"], { env: process.env });
    expect(cli.stdout).toBe(DECLINE.stdout);

    // A second decision for the same gate in the same second would not be the latest: refused, file untouched.
    const afterDecline = fs.readFileSync(coord("checkpoints/goal-gate.json"), "utf8");
    const now = new Date(Date.parse(record.timestamp));
    const { decideGoalGateFile } = await import("../../lib/memory/goal-gate");
    const { ProjectFs } = await import("../../lib/core/project-fs");
    const pfs = await ProjectFs.open(root);
    expect(() => decideGoalGateFile(pfs, { file, gate: "danger", decision: "approve", rationale: "ok now", keyId: "owner" }, { keys, policy: policy.base, now })).toThrow(/not older than now/);
    expect(fs.readFileSync(coord("checkpoints/goal-gate.json"), "utf8")).toBe(afterDecline);
    expect(fs.existsSync(coord("checkpoints/goal-gate.json.lock"))).toBe(false);

    // A later approve clears the decline: the slice boundary is back, and auto-continue with it.
    decideGoalGateFile(pfs, { file, gate: "danger", decision: "approve", rationale: "Authorized after review", keyId: "owner" }, { keys, policy: policy.base, now: new Date(now.getTime() + 60_000) });
    const approved = (await taskEvaluations(projectId)).find((t) => t.taskId === "goal-gate")!;
    expect(approved.outcome).toMatchObject({ decision: "checkpoint", scope: "slice", auto_continue: true, reasons: ["slice_limit:cycle"] });
    expect(approved.goal!.gates).toMatchObject([{ gate: "danger", decision: "approve", records: 2 }]);
    // The desk still reads the project without problems.
    expect((await memoryDesk(projectId)).snapshot.errors).toEqual([]);
  });

  it("refuses a gate decision for a checkpoint without a pending action, a v1 checkpoint, or a held lock", async () => {
    process.env.AGENT_COLLAB_HUMAN_KEYS_JSON = GOLDEN_KEYS_JSON;
    const input = { gate: "danger", decision: "approve" as const, rationale: "r", keyId: "owner" };
    await expect(decideGoalGate(projectId, "goal-slice", { ...input, file: ".coord/checkpoints/goal-slice.json" })).rejects.toMatchObject({
      code: "GATE_REFUSED",
      message: expect.stringContaining("names no pending action"),
    });
    await expect(decideGoalGate(projectId, "define-auth-contract", { ...input, file: ".coord/checkpoints/define-auth-contract.json" })).rejects.toMatchObject({
      code: "GATE_REFUSED",
      message: expect.stringContaining("TaskCheckpoint v1"),
    });
    await expect(decideGoalGate(projectId, "goal-slice", { ...input, file: ".coord/checkpoints/goal-gate.json" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(decideGoalGate(projectId, "goal-gate", { ...input, file: "../outside.json" })).rejects.toThrow(/must be .coord\/checkpoint.json/);
    fs.writeFileSync(coord("checkpoints/goal-gate.json.lock"), JSON.stringify({ owner: "1@elsewhere", created_at: "2026-02-10T12:00:00Z", task_id: "x", proposal_id: "y", token: "t" }));
    try {
      await expect(decideGoalGate(projectId, "goal-gate", { ...input, file: ".coord/checkpoints/goal-gate.json" })).rejects.toMatchObject({
        code: "CONFLICT",
        message: expect.stringContaining(".coord/checkpoints/goal-gate.json is locked"),
      });
    } finally {
      fs.rmSync(coord("checkpoints/goal-gate.json.lock"));
    }
  });
});
