import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { canonicalSha256 } from "../../lib/memory/canonical-json";
import { applyApprovedProposal, breakCoordLock, coordDraft, decideProposal, memoryDesk, saveCoordDraft, taskEvaluations } from "../../lib/memory/desk";
import { draftOr404 } from "../../app/projects/[id]/memory/draft/load-draft";
import { addProject } from "../../lib/projects/add-project";
import { goldenCase } from "../helpers/goal-golden";
import { buildHostileRepo, treeDigest } from "../helpers/hostile-repo";
import { copySampleProject, makeTempDir, removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

const ADD = "8d3a6f12-4b7e-4c91-9f0a-1e5d2c8b7a63";
const SECRET = "desk-test-secret-abcdef";
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
    expect(tasks.map((t) => [t.taskId, t.outcome.decision])).toEqual([["define-auth-contract", "continue"]]);
    // One name for the sample's task: the checkpoint's task_id is the one its file and the proposal it made use.
    expect(tasks[0]!.file).toBe(".coord/checkpoints/define-auth-contract.json");
    expect(p.source_task).toBe(tasks[0]!.taskId);
    expect(tasks[0]!.metrics.find((m) => m.metric === "tool_calls")).toMatchObject({ limit: "max_tool_calls", observed: 0, max: 20, reached: false });
  });

  it("shows the child counts and the transcript growth against their limits, as the evaluator rules them", async () => {
    const file = path.join(root, ".coord/checkpoints/define-auth-contract.json");
    const original = fs.readFileSync(file, "utf8");
    try {
      fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(original), children_spawned: 4, active_children: 3, transcript_bytes: 150000, last_checkpoint_transcript_bytes: 40000 }, null, 2));
      const [task] = await taskEvaluations(projectId);
      const row = (m: string) => task!.metrics.find((r) => r.metric === m);
      expect(row("children_spawned")).toMatchObject({ limit: "max_children_per_parent", observed: 4, max: 4, state: "spawn_blocked" });
      expect(row("active_children")).toMatchObject({ limit: "max_concurrency", observed: 3, max: 2, state: "exceeded" });
      expect(row("transcript_growth")).toMatchObject({ limit: "checkpoint_transcript_bytes", observed: 110000, max: 100000, state: "checkpoint_due" });
      expect(task!.outcome).toMatchObject({ decision: "stop", spawn_allowed: false, reasons: ["limit_exceeded:active_children=3:max_concurrency=2"] });
    } finally {
      fs.writeFileSync(file, original);
    }
  });

  it("neither decides nor applies a proposal whose signed decision was copied onto another file", async () => {
    process.env.AGENT_COLLAB_HUMAN_KEYS_JSON = JSON.stringify({ ana: SECRET });
    const SUPERSEDE = "e27b9c40-5f18-4a3d-8e6c-9b1d0f4a2c75";
    const REPLAY = "0f0f0f0f-1111-4222-8333-444444444444";
    await decideProposal(projectId, SUPERSEDE, { decision: "approve", rationale: "ADR 0003 revised", keyId: "ana" });
    const dir = path.join(root, ".coord/memory-proposals");
    const copy = JSON.parse(fs.readFileSync(path.join(dir, `${SUPERSEDE}.json`), "utf8"));
    fs.writeFileSync(path.join(dir, `${REPLAY}.json`), JSON.stringify({ ...copy, proposal_id: REPLAY }, null, 2));
    // A copy onto another action can never verify: it must not freeze the genuine proposal.
    const JUNK = "0f0f0f0f-5555-4666-8777-888888888888";
    fs.writeFileSync(path.join(dir, `${JUNK}.json`), JSON.stringify({ ...copy, proposal_id: JUNK, action: { ...copy.action, summary: "Something else entirely" } }, null, 2));
    const before = fs.readFileSync(path.join(root, ".coord/memory.yml"), "utf8");
    try {
      const desk = await memoryDesk(projectId);
      expect(desk.snapshot.proposals.find((p) => p.proposal.proposal_id === REPLAY)!.replayedWith).toEqual([`.coord/memory-proposals/${SUPERSEDE}.json`]);
      expect(desk.snapshot.proposals.find((p) => p.proposal.proposal_id === SUPERSEDE)!.replayedWith).toEqual([`.coord/memory-proposals/${REPLAY}.json`]);
      for (const id of [REPLAY, SUPERSEDE]) {
        await expect(applyApprovedProposal(projectId, id)).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("replayed approval is neither decided nor applied") });
        await expect(decideProposal(projectId, id, { decision: "decline", rationale: "x", keyId: "ana" })).rejects.toMatchObject({ code: "CONFLICT" });
      }
      expect(fs.readFileSync(path.join(root, ".coord/memory.yml"), "utf8")).toBe(before);
    } finally {
      fs.rmSync(path.join(dir, `${REPLAY}.json`));
    }
    // The junk copy stays; the original still applies.
    // With the copy gone the original applies, once.
    expect((await applyApprovedProposal(projectId, SUPERSEDE)).event.event_id).toBe("M4");
    fs.rmSync(path.join(dir, `${JUNK}.json`));
  });
});

describe("goal checkpoints and goal policies on the task page", () => {
  it("evaluate a GoalCheckpoint with only a v1 policy as `policy evaluate` does: the version-mismatch stop, explained", async () => {
    const root = copySampleProject();
    const c = goldenCase("worked: v2 checkpoint with a v1 policy");
    fs.writeFileSync(path.join(root, ".coord/checkpoints/goal.json"), c.files["goal.json"]!);
    const id = (await addProject({ path: root })).id;
    const goal = (await taskEvaluations(id)).find((t) => t.version === 2)!;
    expect(goal.outcome).toMatchObject({ decision: "stop", scope: null, auto_continue: null, reasons: ["evaluation_error:checkpoint and policy versions must match"] });
    // The reference named its fail-closed result after policy.json too.
    expect(goal.decisionJson).toBe(c.stdout);
    expect(goal.reasons[0]!.words).toMatch(/A GoalCheckpoint v2 needs a goal policy \(v2\)/);
    expect(goal.goal).toMatchObject({ goalId: "goal-1", sliceId: 0, pendingCompaction: false });

    // An invalid .coord/policy.json is still what `policy evaluate` would read: its fault is the answer, for both kinds.
    fs.writeFileSync(path.join(root, ".coord/policy.json"), JSON.stringify({ schema_version: 2, policy_id: "goals", goal_limits: { max_slices: 3 } }, null, 2));
    const all = await taskEvaluations(id);
    expect(all.map((t) => [t.version, t.policyFile, t.outcome.reasons])).toEqual([
      [1, ".coord/policy.json", ["evaluation_error:goal policy: expected fields ['base_policy', 'goal_limits', 'policy_id', 'reviewer_reserve', 'schema_version']"]],
      [2, ".coord/policy.json", ["evaluation_error:goal policy: expected fields ['base_policy', 'goal_limits', 'policy_id', 'reviewer_reserve', 'schema_version']"]],
    ]);
    expect((await memoryDesk(id)).snapshot.errors.filter((e) => e.file === ".coord/policy.json").map((e) => e.field)).toEqual(expect.arrayContaining(["base_policy", "reviewer_reserve"]));
  });
});

describe("locks left by a crash", () => {
  it("shows the memory lock's record and lets the desk remove it only once its owner is confirmed gone", async () => {
    const root = copySampleProject();
    const id = (await addProject({ path: root })).id;
    const lock = path.join(root, ".coord/memory.yml.lock");
    const record = (pid: number) => JSON.stringify({ owner: `${pid}@${os.hostname()}`, created_at: "2026-02-10T12:00:00Z", task_id: "workbench-apply", proposal_id: ADD, token: "t" });

    fs.writeFileSync(lock, record(process.pid));
    const desk = await memoryDesk(id);
    expect(desk.snapshot.lock).toMatchObject({ ownerAlive: true, record: { owner: `${process.pid}@${os.hostname()}`, created_at: "2026-02-10T12:00:00Z", task_id: "workbench-apply", proposal_id: ADD } });
    expect(desk.snapshot.lock!.ageMs).toBeGreaterThan(0);
    await expect(breakCoordLock(id, { file: ".coord/memory.yml.lock" })).rejects.toMatchObject({ code: "GATE_REFUSED", message: expect.stringContaining("cannot be confirmed dead") });
    expect(fs.existsSync(lock)).toBe(true);

    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    fs.writeFileSync(lock, record(dead));
    const { removed } = await breakCoordLock(id, { file: ".coord/memory.yml.lock" });
    expect(removed).toMatchObject({ ownerAlive: false, stale: true });
    expect(fs.existsSync(lock)).toBe(false);

    // A proposal's leftover decision lock: reported per file, removable the same way.
    const proposalLock = `.coord/memory-proposals/${ADD}.json.lock`;
    fs.writeFileSync(path.join(root, proposalLock), record(dead));
    const snap = (await memoryDesk(id)).snapshot;
    expect(snap.proposalLocks.map((l) => l.file)).toEqual([proposalLock]);
    expect(snap.errors).toEqual([expect.objectContaining({ file: proposalLock, severity: "warning" })]);
    await breakCoordLock(id, { file: proposalLock });
    expect(fs.existsSync(path.join(root, proposalLock))).toBe(false);

    // Only lock files are accepted, never another path.
    for (const file of [".coord/memory.yml", "../memory.yml.lock", ".coord/memory-proposals/../memory.yml.lock"]) await expect(breakCoordLock(id, { file })).rejects.toThrow();
    await expect(breakCoordLock(id, { file: ".coord/memory.yml.lock" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("saving bounded briefs", () => {
  it("two saves at once get two packet numbers; neither replaces the other", async () => {
    const root = copySampleProject();
    const id = (await addProject({ path: root })).id;
    const draft = await coordDraft(id, { kind: "brief", task: "define-auth-contract" });
    const fill = (md: string, goal: string) =>
      md
        .replace("- <one behaviour the task must deliver>", `- ${goal}`)
        .replace("- <interfaces or schemas the task relies on, by path (or none)>", "- none")
        .replace("- may read: <paths>", "- may read: src/")
        .replace("- may write: <paths>", "- may write: src/auth/")
        .replace("- must not touch: <paths>", "- must not touch: migrations/")
        .replace("- <runnable check>", "- npm test");
    const [a, b] = await Promise.all([saveCoordDraft(id, { kind: "brief", markdown: fill(draft.markdown, "first brief") }), saveCoordDraft(id, { kind: "brief", markdown: fill(draft.markdown, "second brief") })]);
    expect([a.file, b.file].sort()).toEqual([".coord/context_001.md", ".coord/context_002.md"]);
    expect(fs.readFileSync(path.join(root, a.file), "utf8")).toContain("- first brief");
    expect(fs.readFileSync(path.join(root, b.file), "utf8")).toContain("- second brief");
    expect(fs.readdirSync(path.join(root, ".coord")).filter((n) => n.includes(".tmp."))).toEqual([]);
    // A refused draft writes nothing.
    await expect(saveCoordDraft(id, { kind: "brief", markdown: draft.markdown })).rejects.toMatchObject({ code: "GATE_REFUSED" });
    expect(fs.readdirSync(path.join(root, ".coord")).filter((n) => n.startsWith("context_"))).toHaveLength(2);
  });
});

describe("a hostile .coord folder on the desk", () => {
  it("names each trap and still shows the proposals, the memory and the task decisions, without reading outside", async () => {
    process.env.AGENT_COLLAB_HUMAN_KEYS_JSON = JSON.stringify({ ana: SECRET });
    const repo = buildHostileRepo({ traps: ["deep-json", "fifo", "link-out-file", "binary"], logLines: 10, hugeBytes: 1024 });
    fs.writeFileSync(path.join(repo.root, ".coord/memory-proposals/binary.json"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]));
    fs.writeFileSync(path.join(repo.root, ".coord/checkpoints/latin1.json"), Buffer.concat([Buffer.from('{"task_id": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]));
    const id = (await addProject({ path: repo.root })).id;

    const t0 = Date.now();
    const desk = await memoryDesk(id);
    const tasks = await taskEvaluations(id);
    const draft = await coordDraft(id, { kind: "brief", task: "define-auth-contract" });
    expect(Date.now() - t0).toBeLessThan(15_000);

    const reasons = Object.fromEntries(desk.snapshot.errors.filter((e) => e.reason).map((e) => [e.file, e.reason]));
    expect(reasons).toEqual({
      ".coord/checkpoints/deep-nest.json": "too_deep",
      ".coord/memory-proposals/deep-nest.json": "too_deep",
      ".coord/memory-proposals/fifo.json": "not_regular",
      ".coord/memory-proposals/leak.json": "outside_root",
      ".coord/memory-proposals/binary.json": "binary",
      ".coord/checkpoints/latin1.json": "invalid_utf8",
    });
    expect(desk.snapshot.proposals).toHaveLength(2);
    expect(desk.snapshot.memory?.events).toHaveLength(2);
    expect(tasks.map((t) => [t.taskId, t.outcome.decision])).toEqual([["define-auth-contract", "continue"]]);
    expect(draft.markdown).toContain("# Context packet — define-auth-contract");
    for (const out of [desk, tasks, draft]) expect(JSON.stringify(out)).not.toContain(repo.secret);
  });

  it("writes a primer or a packet only inside the project: a .coord linking out is refused, nothing written there", async () => {
    const repo = buildHostileRepo({ traps: [] });
    const id = (await addProject({ path: repo.root })).id;
    const primer = (await coordDraft(id, { kind: "primer" })).markdown
      .replace(/<[^<>\n]+>/g, "none")
      .replace(/## Decisions and who made them\n(- none\n)?/, "## Decisions and who made them\n- Keep the session contract (human:ana)\n");
    fs.renameSync(path.join(repo.root, ".coord"), path.join(repo.outside, "coord"));
    fs.symlinkSync(path.join(repo.outside, "coord"), path.join(repo.root, ".coord"));
    const before = treeDigest(repo.outside);
    await expect(saveCoordDraft(id, { kind: "primer", markdown: primer })).rejects.toMatchObject({ code: "UNSAFE_PATH", message: ".coord: the folder links outside the project; nothing is written there." });
    expect(treeDigest(repo.outside)).toEqual(before);
  });
});

describe("the draft page's parameters", () => {
  const isNotFound = (e: unknown) => (e as { digest?: string }).digest === "NEXT_HTTP_ERROR_FALLBACK;404";

  it("answers the not-found page for an unknown task or a task id past its limit, as the API answers 404/400", async () => {
    const id = (await addProject({ path: copySampleProject() })).id;
    for (const task of ["no-such-task", "x".repeat(201)]) {
      const err = await draftOr404(id, { kind: "brief", task }).catch((e: unknown) => e);
      expect(isNotFound(err), String(err)).toBe(true);
    }
    await expect(coordDraft(id, { kind: "brief", task: "no-such-task" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await draftOr404(id, { kind: "brief", task: "define-auth-contract" })).draft.markdown).toContain("define-auth-contract");
    expect((await draftOr404(id, { kind: "primer", task: ["a", "b"] })).kind).toBe("primer");
  });
});

describe("evidence refs written as pytest node ids", () => {
  const NODE_ID = "tests/test_harness_policy.py::test_override_must_be_authorized_before_original_limit_is_exhausted";
  const PROPOSAL = "3c9e2f10-7a4b-4d21-9b8e-5f6a7c8d9e01";

  it("a correctly signed approval citing a node id is decided and applied through the desk, and memory.yml holds the ref", async () => {
    const root = copySampleProject();
    const policyPath = path.join(root, ".coord/policy.json");
    const policy = JSON.parse(fs.readFileSync(policyPath, "utf8")) as { human_authorization: { key_hashes: Record<string, string> } };
    policy.human_authorization.key_hashes.ana = crypto.createHash("sha256").update(SECRET).digest("hex");
    fs.writeFileSync(policyPath, JSON.stringify(policy, null, 2));
    fs.mkdirSync(path.join(root, "tests"));
    fs.writeFileSync(path.join(root, "tests/test_harness_policy.py"), "def test_override_must_be_authorized_before_original_limit_is_exhausted() -> None:\n    assert True\n");
    const refs = [NODE_ID, "tests/test_harness_policy.py::test_removed_since", "src/auth/SessionService.ts:1"];
    const action = { operation: "add", target_ref: null, summary: "An override must be authorized before the original limit is exhausted.", evidence_refs: refs };
    fs.writeFileSync(
      path.join(root, ".coord/memory-proposals", `${PROPOSAL}.json`),
      JSON.stringify({ schema_version: 1, proposal_id: PROPOSAL, source_task: "harness-policy", action, state: "proposed", created_at: "2026-02-11T09:00:00Z", decision: null }, null, 2),
    );
    const id = (await addProject({ path: root })).id;
    process.env.AGENT_COLLAB_HUMAN_KEYS_JSON = JSON.stringify({ ana: SECRET });

    // What the page and GET /memory show for each ref: the status, and the symbol or lines beside it.
    const shown = (await memoryDesk(id)).snapshot.proposals.find((p) => p.proposal.proposal_id === PROPOSAL)!;
    expect(shown.evidence).toMatchObject([
      { ref: NODE_ID, status: "present", form: "node_id", path: "tests/test_harness_policy.py", symbol: { lookFor: "test_override_must_be_authorized_before_original_limit_is_exhausted", found: true } },
      { ref: refs[1], status: "present", symbol: { lookFor: "test_removed_since", found: false, note: "test_removed_since does not occur in tests/test_harness_policy.py" } },
      { ref: refs[2], status: "present", form: "lines", lines: { start: 1, end: 1, found: true } },
    ]);

    const decided = await decideProposal(id, PROPOSAL, { decision: "approve", rationale: "The harness test pins the rule.", keyId: "ana" });
    expect(decided).toMatchObject({ state: "approved", decision: { actor: "human:ana", decision: "approve", affected_action_hash: canonicalSha256(action) } });
    const { event } = await applyApprovedProposal(id, PROPOSAL);
    expect(event).toMatchObject({ event_id: "M3", source_proposal_id: PROPOSAL, evidence_refs: refs });
    const doc = YAML.parse(fs.readFileSync(path.join(root, ".coord/memory.yml"), "utf8")) as { events: { event_id: string; source_proposal_id?: string; evidence_refs: string[] }[] };
    expect(doc.events.at(-1)).toMatchObject({ event_id: "M3", source_proposal_id: PROPOSAL, evidence_refs: refs });
    expect((await memoryDesk(id)).snapshot.proposals.find((p) => p.proposal.proposal_id === PROPOSAL)!.appliedAs).toBe("M3");
  });
});
