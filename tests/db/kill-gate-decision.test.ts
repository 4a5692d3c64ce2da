/**
 * kill -9 at any step of a signed human decision (issue 31, point 3), through the service entries
 * the decision routes call, each in a process of its own: a memory proposal's decision
 * (decideProposal: the proposal's lock, the decided file replaced atomically) and a goal gate's
 * decision (decideGoalGate: the checkpoint's lock, the checkpoint with the new signed record
 * replaced atomically). Neither writes database rows. After each kill: `.coord/` holds exactly the
 * files before the decision or exactly those after (a lock or temp file of the killed process
 * aside), the decided file parses and its record verifies, what the pages show is the state
 * before or after, the database is ready, and a lock left behind is removed by the product's own
 * reclaim (breakCoordLock: its owner is confirmed dead) so the next decision goes through. Two
 * projects, one per lane, so kill points run two at a time.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProjectFs } from "../../lib/core/project-fs";
import { pyJsonDumps } from "../../lib/memory/canonical-json";
import { readCoord } from "../../lib/memory/coord";
import { breakCoordLock, memoryDesk, taskEvaluations } from "../../lib/memory/desk";
import { readLockStatus } from "../../lib/memory/lock";
import { parsePyJson } from "../../lib/memory/py-json";
import { readiness } from "../../lib/ops/readiness";
import { addProject } from "../../lib/projects/add-project";
import { buildCoordWriter, readTree, restoreTree } from "../helpers/coord-kill";
import { goldenCase } from "../helpers/goal-golden";
import { REPO, type ChildResult, countSteps, killPoints, runWriter } from "../helpers/kill-points";
import { copySampleProject, makeTempDir, removeTempDirs } from "../helpers/project-builder";

const ADD = "8d3a6f12-4b7e-4c91-9f0a-1e5d2c8b7a63";
const KEY = "ana";
const SECRET = "kill-decision-secret";
/** `owner` is the key every golden goal policy pins. */
const KEYS_JSON = JSON.stringify({ [KEY]: SECRET, owner: "test-owner-secret" });
const savedKeys = process.env.AGENT_COLLAB_HUMAN_KEYS_JSON;
const SLICE = goldenCase("worked: cycle at the slice cap, fresh evidence, next step, no child");
const DECLINE = goldenCase("worked: signed decline while the cycle is at the slice cap");
const GATE_FILE = ".coord/checkpoints/goal-gate.json";

interface Lane {
  root: string;
  coord: string;
  pristine: string;
  projectId: string;
}

/** One writer under test: what it writes, how it is run, and what the pages show of its outcome. */
interface Writer {
  name: string;
  args: (lane: Lane) => string[];
  /** The decided file, relative to `.coord/`. */
  file: string;
  /** Its lock, relative to the project. */
  lock: string;
  taskId: string;
  /** What the product shows of the decision (a proposal's state and signature check, a task's outcome). */
  shown: (lane: Lane) => Promise<unknown>;
}

const writers: Writer[] = [
  {
    name: "a memory proposal's decision",
    args: (lane) => ["decide", lane.projectId, ADD, "approve", KEY, "Matches ADR 0002."],
    file: `memory-proposals/${ADD}.json`,
    lock: `.coord/memory-proposals/${ADD}.json.lock`,
    taskId: "workbench-review",
    shown: async (lane) => {
      const p = (await memoryDesk(lane.projectId)).snapshot.proposals.find((x) => x.proposal.proposal_id === ADD)!;
      return { state: p.proposal.state, decision: p.proposal.decision?.decision ?? null, verified: p.verification?.ok ?? null };
    },
  },
  {
    name: "a goal gate's decision",
    args: (lane) => ["gate", lane.projectId, "goal-gate", GATE_FILE, "danger", "decline", "owner", "Not authorized"],
    file: "checkpoints/goal-gate.json",
    lock: `${GATE_FILE}.lock`,
    taskId: "workbench-gate",
    shown: async (lane) => {
      const t = (await taskEvaluations(lane.projectId)).find((x) => x.taskId === "goal-gate")!;
      return { outcome: t.outcome, gates: t.goal!.gates.map((g) => [g.gate, g.decision, g.records]) };
    },
  },
];

/** A decision's own time and signature (each run signs anew), masked. */
const masked = (text: string) => text.replace(/"timestamp": "[^"]*"/g, '"timestamp": "<now>"').replace(/"signature": "[0-9a-f]*"/g, '"signature": "<sig>"');

/** `.coord/` without a killed decision's leftovers (its lock and the temp files of the lock and of the decided file). */
function coordFiles(lane: Lane, w: Writer): { files: Record<string, string>; leftovers: string[] } {
  const files: Record<string, string> = {};
  const leftovers: string[] = [];
  const lockName = w.lock.slice(".coord/".length);
  for (const [rel, text] of readTree(lane.coord)) {
    if (rel === lockName || rel.startsWith(`${lockName}.tmp.`) || rel.startsWith(`${w.file}.tmp.`)) leftovers.push(rel);
    else files[rel] = rel === w.file ? masked(text) : text;
  }
  return { files, leftovers };
}

const env = () => ({ DATABASE_URL: process.env.DATABASE_URL!, WORKBENCH_DATA_DIR: process.env.WORKBENCH_DATA_DIR!, WORKBENCH_APP_ROOT: REPO, AGENT_COLLAB_HUMAN_KEYS_JSON: KEYS_JSON });
const outcomeOf = (r: ChildResult) => JSON.parse(r.stdout.trim().split("\n").pop() ?? "null") as { ok: boolean; code?: string; message?: string } | null;

describe("kill -9 while a human decision is signed", () => {
  let coordWriter = { entry: "", remove: () => undefined as void };
  const lanes: Lane[] = [];

  beforeAll(async () => {
    coordWriter = await buildCoordWriter("gate-decision");
    process.env.AGENT_COLLAB_HUMAN_KEYS_JSON = KEYS_JSON;
    for (let i = 0; i < 2; i++) {
      const root = copySampleProject();
      const coord = path.join(root, ".coord");
      const pristine = path.join(makeTempDir("wb-kill-decision-"), "coord");
      if (i === 0) {
        const policyPath = path.join(coord, "policy.json");
        const policy = JSON.parse(fs.readFileSync(policyPath, "utf8")) as { human_authorization: { key_hashes: Record<string, string> } };
        policy.human_authorization.key_hashes[KEY] = crypto.createHash("sha256").update(SECRET).digest("hex");
        fs.writeFileSync(policyPath, JSON.stringify(policy, null, 2));
        // The decline case's task without its decision (tests/db/goal-decisions.test.ts): the human records it here.
        fs.writeFileSync(path.join(coord, "goals.policy.json"), SLICE.policy);
        const doc = parsePyJson(DECLINE.checkpoint) as { task_id: string; task: { task_id: string; decisions: unknown[] } };
        doc.task_id = doc.task.task_id = "goal-gate";
        doc.task.decisions = [];
        fs.writeFileSync(path.join(root, GATE_FILE), pyJsonDumps(doc, { indent: 2, sortKeys: false }) + "\n");
      } else {
        restoreTree(lanes[0]!.pristine, coord);
      }
      fs.cpSync(coord, pristine, { recursive: true });
      lanes.push({ root, coord, pristine, projectId: (await addProject({ path: root })).id });
    }
  }, 60_000);

  afterAll(() => {
    coordWriter.remove();
    removeTempDirs();
    if (savedKeys === undefined) delete process.env.AGENT_COLLAB_HUMAN_KEYS_JSON;
    else process.env.AGENT_COLLAB_HUMAN_KEYS_JSON = savedKeys;
  });

  for (const w of writers) {
    it(`${w.name}: .coord/ as before or as after at every kill point, never torn, ready, and its lock reclaimable`, async () => {
      const run = (lane: Lane, killAt: number) => runWriter([coordWriter.entry, ...w.args(lane)], env(), killAt);
      const reset = (lane: Lane) => restoreTree(lane.pristine, lane.coord);
      const lane0 = lanes[0]!;
      reset(lane0);
      const before = { files: coordFiles(lane0, w).files, shown: await w.shown(lane0) };
      const counted = await countSteps([coordWriter.entry, ...w.args(lane0)], env());
      expect(outcomeOf(counted.result), counted.result.stderr).toMatchObject({ ok: true });
      const steps = counted.steps;
      const done = coordFiles(lane0, w);
      expect(done.leftovers).toEqual([]);
      const after = { files: done.files, shown: await w.shown(lane0) };
      expect(after.files[w.file]).not.toBe(before.files[w.file]);
      expect(after.shown).not.toEqual(before.shown);
      reset(lane0);

      const points = killPoints(steps, 31);
      const seen = { before: 0, after: 0, lockLeft: 0, emptyLock: 0, tempLeft: 0 };
      /** A kill point that left the lock and a cut-off temp file of the decided file (as before): replayed after the loop. */
      let lockedBefore: number | null = null;

      const check = async (lane: Lane, at: number) => {
        const where = `${w.name}: kill at step ${at} of ${steps}`;
        const r = await run(lane, at);
        expect(r.signal, `${where}: ${r.stdout}${r.stderr}`).toBe("SIGKILL");
        const { files, leftovers } = coordFiles(lane, w);
        const outcome = JSON.stringify(files) === JSON.stringify(before.files) ? "before" : JSON.stringify(files) === JSON.stringify(after.files) ? "after" : null;
        expect(outcome, `${where}: .coord/ is neither as before nor as after`).not.toBeNull();
        seen[outcome!]++;
        // The decided file is whole JSON, the readers take nothing else for a proposal or a
        // checkpoint, and the pages show the state before or after (its record verifying).
        expect(() => parsePyJson(fs.readFileSync(path.join(lane.coord, w.file), "utf8")), where).not.toThrow();
        const snap = await readCoord(lane.root);
        expect(
          snap.errors.filter((e) => e.severity !== "warning"),
          where,
        ).toEqual([]);
        expect(await w.shown(lane), where).toEqual(outcome === "before" ? before.shown : after.shown);
        if (leftovers.some((f) => f.includes(".tmp."))) seen.tempLeft++;
        expect((await readiness({ collab: null })).status, where).toBe("ready");

        if (leftovers.includes(w.lock.slice(".coord/".length))) {
          seen.lockLeft++;
          // Its record whole, or the name claimed empty with the record whole in the claimer's
          // temp file beside it: either way its owner is known dead, and the product's reclaim removes it.
          const status = readLockStatus(ProjectFs.openSync(lane.root), w.lock)!;
          expect(status, where).toMatchObject({ ownerAlive: false, stale: true });
          const records = status.record ? [status.record] : (status.creators ?? []).map((c) => c.record);
          expect(records, where).toEqual([expect.objectContaining({ task_id: w.taskId })]);
          if (!status.record) seen.emptyLock++;
          // The desk lists it, so a person can remove it there.
          expect(
            snap.proposalLocks.map((l) => l.file),
            where,
          ).toContain(w.lock);
          if (outcome === "before" && leftovers.some((f) => f.startsWith(`${w.file}.tmp.`))) lockedBefore ??= at;
          await expect(breakCoordLock(lane.projectId, { file: w.lock }), where).resolves.toMatchObject({ file: w.lock });
          expect(
            [...readTree(lane.coord).keys()].filter((f) => f.startsWith(w.lock.slice(".coord/".length))),
            where,
          ).toEqual([]);
        }
        reset(lane);
      };

      await Promise.all(
        lanes.map(async (lane, l) => {
          for (let i = l; i < points.length; i += lanes.length) await check(lane, points[i]!);
        }),
      );
      console.log(`kill -9 ${w.name}: ${points.length} kill points over ${steps} steps:`, seen);
      expect(seen.before).toBeGreaterThan(0);
      expect(seen.after).toBeGreaterThan(0);
      expect(lockedBefore).not.toBeNull();

      // A lock left by a kill blocks the next decision until it is reclaimed, never longer:
      // refused, removed by breakCoordLock (its owner is dead), then the decision goes through,
      // past the cut-off temp file, which the readers pass over.
      expect((await run(lane0, lockedBefore!)).signal).toBe("SIGKILL");
      const refused = await run(lane0, 0);
      expect(outcomeOf(refused)).toMatchObject({ ok: false, code: "CONFLICT", message: expect.stringMatching(/is locked: .*looks stale \(.*owner dead\)/) });
      await breakCoordLock(lane0.projectId, { file: w.lock });
      const next = await run(lane0, 0);
      expect(outcomeOf(next), next.stderr).toMatchObject({ ok: true });
      const final = coordFiles(lane0, w);
      expect(final.files).toEqual(after.files);
      expect(final.leftovers).toEqual([expect.stringContaining(`${w.file}.tmp.`)]);
      expect(await w.shown(lane0)).toEqual(after.shown);
      expect((await readCoord(lane0.root)).errors).toEqual([]);
      reset(lane0);
    }, 240_000);
  }
});
