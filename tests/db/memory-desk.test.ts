import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { applyApprovedProposal, decideProposal, memoryDesk, taskEvaluations } from "../../lib/memory/desk";
import { addProject } from "../../lib/projects/add-project";
import { copySampleProject, makeTempDir, removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

const ADD = "8d3a6f12-4b7e-4c91-9f0a-1e5d2c8b7a63";
const SECRET = "desk-test-secret-abcdef";
const saved = { json: process.env.AGENT_COLLAB_HUMAN_KEYS_JSON, file: process.env.WORKBENCH_HUMAN_KEYS_FILE };
afterEach(() => {
  for (const [k, v] of [["AGENT_COLLAB_HUMAN_KEYS_JSON", saved.json], ["WORKBENCH_HUMAN_KEYS_FILE", saved.file]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe("memory desk", () => {
  let root = "";
  let projectId = "";
  beforeAll(async () => {
    root = copySampleProject();
    const policyPath = path.join(root, ".coord/policy.json");
    const policy = JSON.parse(fs.readFileSync(policyPath, "utf8")) as { human_authorization: { key_hashes: Record<string, string> } };
    policy.human_authorization.key_hashes.ana = crypto.createHash("sha256").update(SECRET).digest("hex");
    fs.writeFileSync(policyPath, JSON.stringify(policy, null, 2));
    projectId = (await addProject({ path: root })).id;
  });

  it("says why nothing can be signed without a key, and lists pinned signers without their secrets", async () => {
    delete process.env.AGENT_COLLAB_HUMAN_KEYS_JSON;
    delete process.env.WORKBENCH_HUMAN_KEYS_FILE;
    expect((await memoryDesk(projectId)).keyProblem).toMatch(/no approver key/);
    process.env.AGENT_COLLAB_HUMAN_KEYS_JSON = JSON.stringify({ ana: SECRET, eve: "not-pinned" });
    const desk = await memoryDesk(projectId);
    expect(desk.keyProblem).toBeNull();
    expect(desk.signers).toEqual([
      { keyId: "ana", pinned: true },
      { keyId: "eve", pinned: false, reason: "key_not_pinned" },
    ]);
    expect(JSON.stringify(desk)).not.toContain(SECRET);
    expect(desk.snapshot.proposals.map((p) => p.proposal.state)).toEqual(["proposed", "proposed"]);
  });

  it("refuses a key file inside the project", async () => {
    delete process.env.AGENT_COLLAB_HUMAN_KEYS_JSON;
    fs.writeFileSync(path.join(root, "keys.json"), JSON.stringify({ ana: SECRET }));
    process.env.WORKBENCH_HUMAN_KEYS_FILE = path.join(root, "keys.json");
    expect((await memoryDesk(projectId)).keyProblem).toMatch(/inside the project/);
    await expect(decideProposal(projectId, ADD, { decision: "approve", rationale: "x", keyId: "ana" })).rejects.toMatchObject({ code: "GATE_REFUSED" });
    const outside = path.join(makeTempDir(), "keys.json");
    fs.writeFileSync(outside, JSON.stringify({ ana: SECRET }));
    process.env.WORKBENCH_HUMAN_KEYS_FILE = outside;
    expect((await memoryDesk(projectId)).keyProblem).toBeNull();
  });

  it("signs with a pinned key on the server, applies once, and evaluates each task", async () => {
    process.env.AGENT_COLLAB_HUMAN_KEYS_JSON = JSON.stringify({ ana: SECRET, eve: "not-pinned" });
    await expect(decideProposal(projectId, ADD, { decision: "approve", rationale: "ok", keyId: "eve" })).rejects.toMatchObject({ code: "GATE_REFUSED" });
    const p = await decideProposal(projectId, ADD, { decision: "approve", rationale: "Matches ADR 0002", keyId: "ana" });
    expect(p).toMatchObject({ state: "approved", decision: { actor: "human:ana", decision: "approve" } });
    const { event } = await applyApprovedProposal(projectId, ADD);
    expect(event).toMatchObject({ event_id: "M3", source_proposal_id: ADD });
    await expect(applyApprovedProposal(projectId, ADD)).rejects.toMatchObject({ code: "CONFLICT" });
    const doc = YAML.parse(fs.readFileSync(path.join(root, ".coord/memory.yml"), "utf8")) as { events: unknown[] };
    expect(doc.events).toHaveLength(3);

    const tasks = await taskEvaluations(projectId);
    expect(tasks.map((t) => [t.taskId, t.outcome.decision])).toEqual([["example-task", "continue"]]);
    expect(tasks[0]!.metrics.find((m) => m.metric === "tool_calls")).toMatchObject({ limit: "max_tool_calls", observed: 0, max: 20, reached: false });
  });
});
