import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { applyProposal } from "../../../lib/memory/apply";
import { readCoord } from "../../../lib/memory/coord";
import { buildCurrentView } from "../../../lib/memory/current-view";
import { decideProposalFile } from "../../../lib/memory/decide";
import { HumanKeys } from "../../../lib/memory/keys";
import { ProjectFs } from "../../../lib/core/project-fs";
import { LOCK_FILE, acquireLock, breakStaleLock, readLockStatus } from "../../../lib/memory/lock";
import { parseMemoryText } from "../../../lib/memory/memory-file";
import { actionHash } from "../../../lib/memory/proposal";
import { ADD_ID, KEY_ID, REPO, SECRET, SUPERSEDE_ID, keys, memoryPath, projectPolicy, proposalPath, removeCopies, sampleCopy } from "./helpers";

afterAll(removeCopies);

const NOW = new Date("2026-02-10T12:00:00Z");
const WORKER = path.join(import.meta.dirname, "apply-worker.ts");
const lockPath = (root: string) => path.join(root, ".coord", "memory.yml.lock");
const pfsOf = (root: string) => ProjectFs.openSync(root);

async function approved(id = SUPERSEDE_ID): Promise<string> {
  const root = sampleCopy();
  await decideProposalFile(root, id, { decision: "approve", rationale: "ADR 0003 was revised in the JIRA-123 review.", keyId: KEY_ID, now: NOW }, { keys, policy: projectPolicy(root) });
  return root;
}

const opts = (root: string, extra: object = {}) => ({ keys, policy: projectPolicy(root), taskId: "JIRA-123", now: new Date("2026-02-10T12:05:00Z"), ...extra });

interface WorkerResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  out: { ok: boolean; eventId?: string; code?: string; message?: string } | null;
  stderr: string;
}

function worker(root: string, id: string, mode: string, barrier?: string): Promise<WorkerResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", WORKER, root, id, mode, ...(barrier ? [barrier] : [])], {
      cwd: REPO,
      env: { ...process.env, TEST_HUMAN_KEYS_JSON: JSON.stringify({ [KEY_ID]: SECRET }) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      const line = stdout.trim().split("\n").pop();
      resolve({ status, signal, out: line ? JSON.parse(line) : null, stderr });
    });
  });
}

/**
 * Opens the barrier once all `n` workers have loaded and wait at it, so they race at once; a
 * worker that never gets there fails the test rather than leaving the others to race fewer.
 */
async function releaseTogether(barrier: string, n: number): Promise<void> {
  const ready = () => fs.readdirSync(path.dirname(barrier)).filter((name) => name.startsWith(`${path.basename(barrier)}.ready.`)).length;
  await expect.poll(ready, { timeout: 60_000, interval: 20, message: "every worker waits at the barrier" }).toBe(n);
  fs.writeFileSync(barrier, "go");
}

describe("applying an approved proposal", () => {
  it("appends one supersede event, keeps every existing byte, and refuses a second apply", async () => {
    const root = await approved();
    const before = fs.readFileSync(memoryPath(root), "utf8");
    const { event } = await applyProposal(root, SUPERSEDE_ID, opts(root));
    expect(event).toMatchObject({ event_id: "M3", event_type: "decision", supersedes: ["M1"], target_ref: "M1", actor: "human:priya", source_proposal_id: SUPERSEDE_ID, created_at: "2026-02-10T12:05:00Z" });
    expect(event.approval).toMatchObject({ actor: "human:priya", decision: "approve", timestamp: "2026-02-10T12:00:00Z" });
    const after = fs.readFileSync(memoryPath(root), "utf8");
    expect(after.startsWith(before)).toBe(true);
    const parsed = parseMemoryText(after);
    expect(parsed.errors).toEqual([]);
    const view = buildCurrentView(parsed.events);
    expect(view.entries[0]).toMatchObject({ status: "superseded", supersededBy: ["M3"] });
    expect(view.entries[2]).toMatchObject({ approvalCheck: "match", approvedOperation: "supersede" });
    expect(fs.existsSync(lockPath(root))).toBe(false);

    await expect(applyProposal(root, SUPERSEDE_ID, opts(root))).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("already applied as M3") });
    expect(fs.readFileSync(memoryPath(root), "utf8")).toBe(after);
  });

  it("adds an event of the requested fact type", async () => {
    const root = await approved(ADD_ID);
    const { event } = await applyProposal(root, ADD_ID, opts(root, { eventType: "open_question" }));
    expect(event).toMatchObject({ event_id: "M3", event_type: "open_question", supersedes: [], target_ref: null });
    expect(buildCurrentView(parseMemoryText(fs.readFileSync(memoryPath(root), "utf8")).events).entries[2]!.approvalCheck).toBe("match");
  });

  it("a signed approval citing agent-collab's pytest node ids is approved and applied: each ref resolves by its path part", async () => {
    const NODE_ID = "tests/test_harness_policy.py::test_override_must_be_authorized_before_original_limit_is_exhausted";
    const refs = [NODE_ID, "tests/test_harness_policy.py::TestOverrides::test_renamed_since[late]", "src/auth/SessionService.ts#L1-L3"];
    const root = sampleCopy();
    fs.mkdirSync(path.join(root, "tests"));
    fs.writeFileSync(path.join(root, "tests/test_harness_policy.py"), "def test_override_must_be_authorized_before_original_limit_is_exhausted() -> None:\n    assert True\n");
    const file = proposalPath(root, ADD_ID);
    const proposal = JSON.parse(fs.readFileSync(file, "utf8"));
    proposal.action.evidence_refs = refs;
    fs.writeFileSync(file, JSON.stringify(proposal, null, 2));

    const decided = await decideProposalFile(root, ADD_ID, { decision: "approve", rationale: "The harness test pins the rule.", keyId: KEY_ID, now: NOW }, { keys, policy: projectPolicy(root) });
    expect(decided.state).toBe("approved");
    // A symbol the file no longer has is shown, never a gate.
    const shown = (await readCoord(root, { keys })).proposals.find((p) => p.proposal.proposal_id === ADD_ID)!;
    expect(shown.evidence.map((e) => [e.status, e.symbol?.found ?? e.lines?.found])).toEqual([
      ["present", true],
      ["present", false],
      ["present", true],
    ]);

    const { event } = await applyProposal(root, ADD_ID, opts(root));
    expect(event).toMatchObject({ event_id: "M3", source_proposal_id: ADD_ID, evidence_refs: refs, approval: { actor: "human:priya", decision: "approve", affected_action_hash: actionHash(proposal.action) } });
    const stored = parseMemoryText(fs.readFileSync(memoryPath(root), "utf8"));
    expect(stored.errors).toEqual([]);
    expect(stored.events.at(-1)).toMatchObject({ event_id: "M3", evidence_refs: refs });
    expect(buildCurrentView(stored.events).entries[2]!.approvalCheck).toBe("match");
  });

  it("a node id whose file is gone stays missing: apply refuses and names the path part", async () => {
    const root = sampleCopy();
    fs.mkdirSync(path.join(root, "tests"));
    fs.writeFileSync(path.join(root, "tests/test_harness_policy.py"), "def test_late():\n    pass\n");
    const file = proposalPath(root, ADD_ID);
    const proposal = JSON.parse(fs.readFileSync(file, "utf8"));
    proposal.action.evidence_refs = ["tests/test_harness_policy.py::test_late"];
    fs.writeFileSync(file, JSON.stringify(proposal, null, 2));
    await decideProposalFile(root, ADD_ID, { decision: "approve", rationale: "ok", keyId: KEY_ID, now: NOW }, { keys, policy: projectPolicy(root) });
    fs.rmSync(path.join(root, "tests/test_harness_policy.py"));
    const before = fs.readFileSync(memoryPath(root), "utf8");
    await expect(applyProposal(root, ADD_ID, opts(root))).rejects.toMatchObject({
      code: "GATE_REFUSED",
      message: "Evidence does not resolve: tests/test_harness_policy.py::test_late: missing (tests/test_harness_policy.py is missing).",
    });
    expect(fs.readFileSync(memoryPath(root), "utf8")).toBe(before);
  });

  it("refuses anything but an intact, signed, evidenced approval, leaving memory.yml untouched", async () => {
    const cases: [string, (root: string) => Promise<void> | void, object?][] = [
      ["still proposed", () => undefined],
      ["declined", (root) => decideProposalFile(root, SUPERSEDE_ID, { decision: "decline", rationale: "no", keyId: KEY_ID }, { keys, policy: projectPolicy(root) }).then(() => undefined)],
      ["revised", (root) => decideProposalFile(root, SUPERSEDE_ID, { decision: "revise", rationale: "redo", keyId: KEY_ID }, { keys, policy: projectPolicy(root) }).then(() => undefined)],
    ];
    for (const [name, setup] of cases) {
      const root = sampleCopy();
      await setup(root);
      const before = fs.readFileSync(memoryPath(root), "utf8");
      await expect(applyProposal(root, SUPERSEDE_ID, opts(root)), name).rejects.toMatchObject({ code: "GATE_REFUSED" });
      expect(fs.readFileSync(memoryPath(root), "utf8")).toBe(before);
    }

    const tamper: [string, (p: Record<string, any>) => void, RegExp][] = [
      ["action edited after approval", (p) => (p.action.summary += " Also, skip the lifecycle rule."), /action changed after the decision/],
      ["rationale edited", (p) => (p.decision.rationale = "I never said this."), /invalid human authorization signature/],
      ["actor changed", (p) => (p.decision.actor = "human:mallory"), /actor must match authorization key_id human:priya/],
    ];
    for (const [name, edit, why] of tamper) {
      const root = await approved();
      const file = proposalPath(root, SUPERSEDE_ID);
      const p = JSON.parse(fs.readFileSync(file, "utf8"));
      edit(p);
      fs.writeFileSync(file, JSON.stringify(p, null, 2));
      const before = fs.readFileSync(memoryPath(root), "utf8");
      const err = await applyProposal(root, SUPERSEDE_ID, opts(root)).catch((e: unknown) => e);
      expect(err, name).toMatchObject({ message: expect.stringMatching(why) });
      expect(fs.readFileSync(memoryPath(root), "utf8")).toBe(before);
      expect(fs.existsSync(lockPath(root))).toBe(false);
    }
  });

  it("refuses without the pinned secret, with vanished evidence, and for an unknown target", async () => {
    const root = await approved();
    await expect(applyProposal(root, SUPERSEDE_ID, opts(root, { keys: HumanKeys.none() }))).rejects.toMatchObject({
      code: "GATE_REFUSED",
      message: expect.stringContaining("no configured human authorization key: priya"),
    });
    await expect(applyProposal(root, SUPERSEDE_ID, opts(root, { keys: new HumanKeys({ priya: "not-the-secret" }) }))).rejects.toMatchObject({ message: expect.stringContaining("does not match canonical policy") });
    fs.rmSync(path.join(root, "knowledge/product/exports.md"));
    await expect(applyProposal(root, SUPERSEDE_ID, opts(root))).rejects.toMatchObject({ code: "GATE_REFUSED", message: "Evidence does not resolve: knowledge/product/exports.md: missing." });

    const root2 = sampleCopy();
    const file = proposalPath(root2, SUPERSEDE_ID);
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('"target_ref": "M1"', '"target_ref": "M9"'));
    await decideProposalFile(root2, SUPERSEDE_ID, { decision: "approve", rationale: "ok", keyId: KEY_ID }, { keys, policy: projectPolicy(root2) });
    await expect(applyProposal(root2, SUPERSEDE_ID, opts(root2))).rejects.toMatchObject({ code: "GATE_REFUSED", message: expect.stringContaining("M9 is not an event") });
  });

  it("refuses while another holder has the lock, naming it", async () => {
    const root = await approved();
    const held = acquireLock(pfsOf(root), LOCK_FILE, { taskId: "other-task", proposalId: ADD_ID });
    try {
      await expect(applyProposal(root, SUPERSEDE_ID, opts(root))).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/memory\.yml is locked: held by \d+@.+ \(task other-task, proposal 8d3a6f12/) });
      const status = readLockStatus(pfsOf(root), LOCK_FILE);
      expect(status).toMatchObject({ ownerAlive: true, stale: false, staleReasons: [] });
    } finally {
      held.release();
    }
    expect((await applyProposal(root, SUPERSEDE_ID, opts(root))).event.event_id).toBe("M3");
  });
});

describe("a signed approval replayed onto another proposal", () => {
  const REPLAY_ID = "0f0f0f0f-1111-4222-8333-444444444444";

  /** A new proposal file with a new id carrying A's decision (and, unless changed, A's action). */
  function replay(root: string, from: string, edit: (p: Record<string, any>) => void = () => undefined): void {
    const p = JSON.parse(fs.readFileSync(proposalPath(root, from), "utf8"));
    p.proposal_id = REPLAY_ID;
    p.state = "approved";
    edit(p);
    fs.writeFileSync(proposalPath(root, REPLAY_ID), JSON.stringify(p, null, 2));
  }

  it("same action: refused under the lock after the original was applied; memory.yml keeps one event", async () => {
    const root = await approved();
    expect((await applyProposal(root, SUPERSEDE_ID, opts(root))).event.event_id).toBe("M3");
    replay(root, SUPERSEDE_ID);
    const before = fs.readFileSync(memoryPath(root), "utf8");
    await expect(applyProposal(root, REPLAY_ID, opts(root))).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("approval already used by M3") });
    expect(fs.readFileSync(memoryPath(root), "utf8")).toBe(before);
    expect(fs.existsSync(lockPath(root))).toBe(false);

    // The folder reader marks both files as sharing one signature, each warning naming the other.
    const snap = await readCoord(root, { keys });
    const replayed = snap.proposals.filter((p) => p.replayedWith.length > 0).map((p) => [p.proposal.proposal_id, p.replayedWith]);
    expect(replayed).toEqual(
      expect.arrayContaining([
        [REPLAY_ID, [`.coord/memory-proposals/${SUPERSEDE_ID}.json`]],
        [SUPERSEDE_ID, [`.coord/memory-proposals/${REPLAY_ID}.json`]],
      ]),
    );
    expect(snap.errors.filter((e) => e.field === "decision.authorization.signature").map((e) => [e.file, e.severity, e.message.includes("replayed")])).toEqual(
      expect.arrayContaining([
        [`.coord/memory-proposals/${REPLAY_ID}.json`, "warning", true],
        [`.coord/memory-proposals/${SUPERSEDE_ID}.json`, "warning", true],
      ]),
    );
  });

  it("same action, the copy applied first: the original is then refused, so one approval never gives two events", async () => {
    const root = await approved();
    replay(root, SUPERSEDE_ID);
    expect((await applyProposal(root, REPLAY_ID, opts(root))).event.event_id).toBe("M3");
    await expect(applyProposal(root, SUPERSEDE_ID, opts(root))).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("approval already used by M3") });
    expect(parseMemoryText(fs.readFileSync(memoryPath(root), "utf8")).events.map((e) => e.event_id)).toEqual(["M1", "M2", "M3"]);
  });

  it("different action: refused (the copied hash or signature does not fit the new action)", async () => {
    const root = await approved();
    await applyProposal(root, SUPERSEDE_ID, opts(root));
    const before = fs.readFileSync(memoryPath(root), "utf8");
    const otherAction = (p: Record<string, any>) => (p.action.summary = "Exports are built inline.");
    replay(root, SUPERSEDE_ID, otherAction);
    await expect(applyProposal(root, REPLAY_ID, opts(root))).rejects.toMatchObject({ code: "UNREADABLE", message: expect.stringContaining("affected_action_hash does not match the action") });
    // Rehashing the new action to match breaks the signature instead.
    replay(root, SUPERSEDE_ID, (p) => {
      otherAction(p);
      p.decision.affected_action_hash = actionHash(p.action);
    });
    await expect(applyProposal(root, REPLAY_ID, opts(root))).rejects.toMatchObject({ code: "GATE_REFUSED", message: expect.stringMatching(/invalid human authorization signature/) });
    expect(fs.readFileSync(memoryPath(root), "utf8")).toBe(before);
  });
});

describe("concurrent applies", () => {
  it("8 processes racing on one approved proposal append exactly one event", async () => {
    const root = await approved();
    const barrierDir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-barrier-"));
    const barrier = path.join(barrierDir, "go");
    const runs = Array.from({ length: 8 }, () => worker(root, SUPERSEDE_ID, "normal", barrier));
    await releaseTogether(barrier, 8);
    const results = await Promise.all(runs);
    fs.rmSync(barrierDir, { recursive: true, force: true });
    const outs = results.map((r) => r.out);
    expect(
      outs.every((o) => o !== null),
      results.map((r) => r.stderr).join("\n"),
    ).toBe(true);
    expect(outs.filter((o) => o!.ok)).toEqual([{ ok: true, eventId: "M3" }]);
    const losers = outs.filter((o) => !o!.ok);
    expect(
      losers.every((o) => o!.code === "CONFLICT"),
      JSON.stringify(losers),
    ).toBe(true);
    const parsed = parseMemoryText(fs.readFileSync(memoryPath(root), "utf8"));
    expect(parsed.errors).toEqual([]);
    expect(parsed.events.map((e) => e.event_id)).toEqual(["M1", "M2", "M3"]);
    expect(fs.existsSync(lockPath(root))).toBe(false);
  }, 90_000);

  it("8 applies in one process append exactly one event", async () => {
    const root = await approved();
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => applyProposal(root, SUPERSEDE_ID, opts(root))));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((r) => r.status === "rejected").every((r) => (r as PromiseRejectedResult).reason.code === "CONFLICT")).toBe(true);
    expect(parseMemoryText(fs.readFileSync(memoryPath(root), "utf8")).events).toHaveLength(3);
    await expect(applyProposal(root, SUPERSEDE_ID, opts(root))).rejects.toMatchObject({ code: "CONFLICT" });
  });
});

describe("concurrent applies of two different proposals", () => {
  async function bothApproved(): Promise<string> {
    const root = await approved(SUPERSEDE_ID);
    await decideProposalFile(root, ADD_ID, { decision: "approve", rationale: "Matches ADR 0002.", keyId: KEY_ID, now: NOW }, { keys, policy: projectPolicy(root) });
    return root;
  }

  const expectTwoEvents = (root: string) => {
    const text = fs.readFileSync(memoryPath(root), "utf8");
    const parsed = parseMemoryText(text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.events.map((e) => e.event_id)).toEqual(["M1", "M2", "M3", "M4"]);
    expect(new Set(parsed.events.slice(2).map((e) => e.source_proposal_id))).toEqual(new Set([ADD_ID, SUPERSEDE_ID]));
    const view = buildCurrentView(parsed.events);
    expect(view.conflicts).toEqual([]);
    expect(view.entries[0]!.status).toBe("superseded");
    expect(fs.existsSync(lockPath(root))).toBe(false);
  };

  it("in one process: both are appended, one after the other", async () => {
    const root = await bothApproved();
    // No fixed clock: the lock records the real time, as a live holder's would.
    const results = await Promise.allSettled([applyProposal(root, ADD_ID, opts(root, { now: undefined })), applyProposal(root, SUPERSEDE_ID, opts(root, { now: undefined }))]);
    expect(
      results.map((r) => r.status),
      JSON.stringify(results),
    ).toEqual(["fulfilled", "fulfilled"]);
    expectTwoEvents(root);
  });

  it("in four processes (two per proposal): exactly two events, the repeats refused", async () => {
    const root = await bothApproved();
    const barrierDir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-barrier-"));
    const barrier = path.join(barrierDir, "go");
    const ids = [ADD_ID, SUPERSEDE_ID, ADD_ID, SUPERSEDE_ID];
    const runs = ids.map((id) => worker(root, id, "normal", barrier));
    await releaseTogether(barrier, ids.length);
    const results = await Promise.all(runs);
    fs.rmSync(barrierDir, { recursive: true, force: true });
    const outs = results.map((r) => r.out);
    expect(
      outs.every((o) => o !== null),
      results.map((r) => r.stderr).join("\n"),
    ).toBe(true);
    expect(outs.filter((o) => o!.ok)).toHaveLength(2);
    expect(
      outs.filter((o) => !o!.ok).every((o) => o!.code === "CONFLICT"),
      JSON.stringify(outs),
    ).toBe(true);
    expectTwoEvents(root);
  }, 90_000);
});

describe("crash during apply", () => {
  for (const mode of ["crash-after-lock", "crash-before-rename"] as const) {
    it(`${mode}: memory.yml stays whole, the lock is reported stale, and is not broken silently`, async () => {
      const root = await approved();
      const before = fs.readFileSync(memoryPath(root), "utf8");
      const r = await worker(root, SUPERSEDE_ID, mode);
      expect(r.signal, r.stderr).toBe("SIGKILL");
      // The old file, complete: the rename never happened.
      expect(fs.readFileSync(memoryPath(root), "utf8")).toBe(before);
      expect(parseMemoryText(before).errors).toEqual([]);
      const leftovers = fs.readdirSync(path.join(root, ".coord")).filter((n) => n.startsWith("memory.yml.tmp."));
      expect(leftovers.length).toBe(mode === "crash-before-rename" ? 1 : 0);

      const status = readLockStatus(pfsOf(root), LOCK_FILE);
      expect(status).toMatchObject({ stale: true, ownerAlive: false, staleReasons: ["owner_dead"] });
      expect(status!.record).toMatchObject({ task_id: expect.stringMatching(/^worker-\d+$/), proposal_id: SUPERSEDE_ID });
      const snap = await readCoord(root);
      expect(snap.lock).toMatchObject({ stale: true, ownerAlive: false });
      expect(snap.memory?.events.map((e) => e.event_id)).toEqual(["M1", "M2"]);
      expect(snap.errors.map((e) => [e.severity, e.file.startsWith(".coord/memory.yml.tmp.")])).toEqual(mode === "crash-before-rename" ? [["warning", true]] : []);
      await expect(applyProposal(root, SUPERSEDE_ID, opts(root))).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("looks stale (owner dead)") });
      expect(fs.existsSync(lockPath(root))).toBe(true);

      breakStaleLock(pfsOf(root), LOCK_FILE);
      expect((await applyProposal(root, SUPERSEDE_ID, opts(root))).event.event_id).toBe("M3");
    }, 60_000);
  }

  it("breaks a dead owner's lock, but leaves a live lock that replaced it in the meantime", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-lock-"));
    try {
      const lock = path.join(dir, "memory.yml.lock");
      const pfs = ProjectFs.openSync(dir);
      const dead = { owner: `999999999@${os.hostname()}`, created_at: "2026-02-10T12:00:00Z", task_id: "t", proposal_id: SUPERSEDE_ID, token: "dead" };
      fs.writeFileSync(lock, JSON.stringify(dead));
      // Another breaker removes it first and a live apply takes the lock, between our read and our move.
      const live = () => {
        fs.rmSync(lock);
        acquireLock(pfs, "memory.yml.lock", { taskId: "live", proposalId: SUPERSEDE_ID });
      };
      expect(() => breakStaleLock(pfs, "memory.yml.lock", "memory lock", { beforeMove: live })).toThrow(expect.objectContaining({ code: "CONFLICT" }));
      expect(readLockStatus(pfs, "memory.yml.lock")!.record).toMatchObject({ task_id: "live", owner: `${process.pid}@${os.hostname()}` });
      expect(fs.readdirSync(dir)).toEqual(["memory.yml.lock"]);

      fs.writeFileSync(lock, JSON.stringify(dead));
      expect(breakStaleLock(pfs, "memory.yml.lock").record).toMatchObject({ token: "dead" });
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reports an old lock from another host as stale but will not break it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-lock-"));
    try {
      const lock = path.join(dir, "memory.yml.lock");
      const pfs = ProjectFs.openSync(dir);
      fs.writeFileSync(lock, JSON.stringify({ owner: "4242@some-other-host", created_at: "2026-02-10T12:00:00Z", task_id: "t", proposal_id: SUPERSEDE_ID, token: "x" }));
      const status = readLockStatus(pfs, "memory.yml.lock", { now: new Date("2026-02-10T12:30:00Z") });
      expect(status).toMatchObject({ stale: true, ownerAlive: null, staleReasons: ["older_than_limit"], ageMs: 30 * 60 * 1000 });
      expect(readLockStatus(pfs, "memory.yml.lock", { now: new Date("2026-02-10T12:01:00Z") })).toMatchObject({ stale: false });
      expect(() => breakStaleLock(pfs, "memory.yml.lock")).toThrow(expect.objectContaining({ code: "GATE_REFUSED" }));
      expect(fs.existsSync(lock)).toBe(true);
      // A lock file cut off before its record was written: reported, never silently taken over.
      fs.writeFileSync(lock, "");
      expect(readLockStatus(pfs, "memory.yml.lock")).toMatchObject({ record: null, staleReasons: ["unreadable"], stale: false });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
