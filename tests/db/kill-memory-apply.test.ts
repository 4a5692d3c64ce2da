/**
 * kill -9 at any step of applying an approved memory proposal (issue 31, point 3), through the
 * service entry the apply route calls (applyApprovedProposal: the checks, the memory lock,
 * memory.yml replaced atomically, the lock released, then the memory search entries synced).
 * After each kill: `.coord/` holds exactly the files before the apply or exactly those after
 * (a lock or temp file of the killed process aside), memory.yml parses whole, the search rows
 * are the ones of the memory.yml on disk (or, killed between the rename and the sync, the old
 * ones marked for a rebuild by their fingerprint, which the next sync repairs), the database is
 * ready, and a lock left behind is removed by the product's own reclaim (breakCoordLock: its
 * owner is confirmed dead) so the next apply goes through. Runs on the database of the run
 * (SQLite, or PostgreSQL in CI's second run). Two projects, one per lane, so kill points run two
 * at a time.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProjectFs } from "../../lib/core/project-fs";
import { readSql } from "../../lib/db/sql-tx";
import { readCoord } from "../../lib/memory/coord";
import { breakCoordLock, decideProposal } from "../../lib/memory/desk";
import { LOCK_FILE, readLockStatus } from "../../lib/memory/lock";
import { parseMemoryText } from "../../lib/memory/memory-file";
import { readiness } from "../../lib/ops/readiness";
import { addProject } from "../../lib/projects/add-project";
import { runSearch } from "../../lib/search/service";
import { syncMemorySearch } from "../../lib/search/sync";
import { buildCoordWriter, readTree, restoreTree } from "../helpers/coord-kill";
import { REPO, countSteps, killPoints, runWriter } from "../helpers/kill-points";
import { copySampleProject, makeTempDir, removeTempDirs } from "../helpers/project-builder";

const SUPERSEDE = "e27b9c40-5f18-4a3d-8e6c-9b1d0f4a2c75";
const KEY = "ana";
const SECRET = "kill-apply-secret";
const KEYS_JSON = JSON.stringify({ [KEY]: SECRET });
const savedKeys = process.env.AGENT_COLLAB_HUMAN_KEYS_JSON;

/** Files a killed apply may leave in `.coord/` besides memory.yml: its lock, and the temp files of the lock and of memory.yml. */
const LEFTOVER = /^(memory\.yml\.lock|memory\.yml\.tmp\..+|memory\.yml\.lock\.tmp\..+)$/;

interface Lane {
  root: string;
  coord: string;
  pristine: string;
  projectId: string;
}

interface Stored {
  /** The project's memory search entries, without what differs between two applies (dates, hashes). */
  entries: string[];
  /** Memory entries the full-text index finds for a word only the new event has. */
  hits: string[];
  /** The stored memory fingerprint is that of memory.yml on disk (false: the next sync rebuilds). */
  fresh: boolean;
}

async function stored(lane: Lane): Promise<Stored> {
  const rows = await readSql<Record<string, unknown>>(`SELECT "kind", "ref", "title", "body", "status", "href" FROM "SearchEntry" WHERE "projectId" = ? AND "kind" = 'memory'`, [lane.projectId]);
  const entries = rows.map((r) => JSON.stringify(r).replaceAll(lane.projectId, "<project>")).sort();
  const hits = (await runSearch({ q: "BullMQ", project: lane.projectId, kind: ["memory"] })).hits.map((h) => h.ref).sort();
  const [source] = await readSql<{ fingerprint: string }>(`SELECT "fingerprint" FROM "SearchSource" WHERE "projectId" = ? AND "key" = 'memory'`, [lane.projectId]);
  // As the sync fingerprints memory.yml (lib/search/sync.ts).
  const st = ProjectFs.openSync(lane.root).statSync(".coord/memory.yml")!;
  return { entries, hits, fresh: source?.fingerprint === `${st.size}:${st.mtimeMs}` };
}

/** `.coord/` without a killed apply's leftovers, the new event's time masked (each apply stamps its own). */
function coordFiles(lane: Lane, before: string): { files: Record<string, string>; leftovers: string[] } {
  const files: Record<string, string> = {};
  const leftovers: string[] = [];
  for (const [rel, text] of readTree(lane.coord)) {
    if (LEFTOVER.test(rel)) leftovers.push(rel);
    else files[rel] = rel === "memory.yml" && text.startsWith(before) && text !== before ? before + text.slice(before.length).replace(/created_at: "[^"]+"/g, 'created_at: "<now>"') : text;
  }
  return { files, leftovers };
}

const env = () => ({ DATABASE_URL: process.env.DATABASE_URL!, WORKBENCH_DATA_DIR: process.env.WORKBENCH_DATA_DIR!, WORKBENCH_APP_ROOT: REPO, AGENT_COLLAB_HUMAN_KEYS_JSON: KEYS_JSON });

describe("kill -9 while a memory proposal is applied", () => {
  let writer = { entry: "", remove: () => undefined as void };
  const lanes: Lane[] = [];
  let beforeMemory = "";
  const state = { before: { files: {} as Record<string, string>, db: {} as Stored }, after: { files: {} as Record<string, string>, db: {} as Stored } };
  let steps = 0;

  const reset = async (lane: Lane) => {
    restoreTree(lane.pristine, lane.coord);
    // The rows follow the restored memory.yml (a new mtime, so its fingerprint is read again).
    await syncMemorySearch(lane.projectId);
  };
  const apply = (lane: Lane, killAt: number) => runWriter([writer.entry, "apply", lane.projectId, SUPERSEDE], env(), killAt);

  beforeAll(async () => {
    writer = await buildCoordWriter("memory-apply");
    process.env.AGENT_COLLAB_HUMAN_KEYS_JSON = KEYS_JSON;
    for (let i = 0; i < 2; i++) {
      const root = copySampleProject();
      const coord = path.join(root, ".coord");
      const pristine = path.join(makeTempDir("wb-kill-apply-"), "coord");
      if (i === 0) {
        const policyPath = path.join(coord, "policy.json");
        const policy = JSON.parse(fs.readFileSync(policyPath, "utf8")) as { human_authorization: { key_hashes: Record<string, string> } };
        policy.human_authorization.key_hashes[KEY] = crypto.createHash("sha256").update(SECRET).digest("hex");
        fs.writeFileSync(policyPath, JSON.stringify(policy, null, 2));
      } else {
        // The same signed decision in both lanes: the same files before and after.
        restoreTree(lanes[0]!.pristine, coord);
      }
      const projectId = (await addProject({ path: root })).id;
      if (i === 0) await decideProposal(projectId, SUPERSEDE, { decision: "approve", rationale: "ADR 0003 was revised in the JIRA-123 review.", keyId: KEY });
      fs.cpSync(coord, pristine, { recursive: true });
      await syncMemorySearch(projectId);
      lanes.push({ root, coord, pristine, projectId });
    }
    const lane = lanes[0]!;
    beforeMemory = fs.readFileSync(path.join(lane.coord, "memory.yml"), "utf8");
    state.before = { files: coordFiles(lane, beforeMemory).files, db: await stored(lane) };
    const counted = await countSteps([writer.entry, "apply", lane.projectId, SUPERSEDE], env());
    expect(JSON.parse(counted.result.stdout)).toMatchObject({ ok: true, result: { event: { event_id: "M3", supersedes: ["M1"] } } });
    steps = counted.steps;
    const after = coordFiles(lane, beforeMemory);
    expect(after.leftovers).toEqual([]);
    state.after = { files: after.files, db: await stored(lane) };
    expect(state.after.files["memory.yml"]).not.toBe(state.before.files["memory.yml"]);
    expect(state.before.db).toMatchObject({ hits: [], fresh: true });
    expect(state.after.db).toMatchObject({ hits: ["M3"], fresh: true });
    await reset(lane);
  }, 60_000);

  afterAll(() => {
    writer.remove();
    removeTempDirs();
    if (savedKeys === undefined) delete process.env.AGENT_COLLAB_HUMAN_KEYS_JSON;
    else process.env.AGENT_COLLAB_HUMAN_KEYS_JSON = savedKeys;
  });

  it("leaves .coord/ and the search rows as before or as after at every kill point, never torn, ready, and its lock reclaimable", async () => {
    const points = killPoints(steps, 31);
    const seen = { before: 0, after: 0, searchPending: 0, lockLeft: 0, emptyLock: 0, tempLeft: 0 };
    /** A kill point that left the lock and a cut-off memory.yml temp file (memory.yml as before): replayed after the loop. */
    let lockedBefore: number | null = null;

    const check = async (lane: Lane, at: number) => {
      const where = `kill at step ${at} of ${steps}`;
      const r = await apply(lane, at);
      expect(r.signal, `${where}: ${r.stdout}${r.stderr}`).toBe("SIGKILL");
      const { files, leftovers } = coordFiles(lane, beforeMemory);
      const outcome = JSON.stringify(files) === JSON.stringify(state.before.files) ? "before" : JSON.stringify(files) === JSON.stringify(state.after.files) ? "after" : null;
      expect(outcome, `${where}: .coord/ is neither as before nor as after`).not.toBeNull();
      const memory = parseMemoryText(fs.readFileSync(path.join(lane.coord, "memory.yml"), "utf8"));
      expect(memory.errors, where).toEqual([]);
      seen[outcome!]++;

      // The readers see memory.yml alone: leftovers are at most warnings beside it.
      const snap = await readCoord(lane.root);
      expect(
        snap.memory?.events.map((e) => e.event_id),
        where,
      ).toEqual(outcome === "before" ? ["M1", "M2"] : ["M1", "M2", "M3"]);
      expect(
        snap.errors.filter((e) => e.severity !== "warning"),
        where,
      ).toEqual([]);
      if (leftovers.some((f) => f.includes(".tmp."))) seen.tempLeft++;

      const db = await stored(lane);
      if (outcome === "before" || JSON.stringify(db) === JSON.stringify(state.after.db)) {
        expect(db, `${where}: search rows`).toEqual(state[outcome!].db);
      } else {
        // Killed after memory.yml was replaced, before its search entries were: the old entries,
        // whose fingerprint no longer matches the file, so the next sync (an apply, an index) rebuilds them.
        expect(db, `${where}: search rows are the old ones, marked stale`).toEqual({ ...state.before.db, fresh: false });
        seen.searchPending++;
        await syncMemorySearch(lane.projectId);
        expect(await stored(lane), `${where}: the next sync repairs them`).toEqual(state.after.db);
      }
      expect((await readiness({ collab: null })).status, where).toBe("ready");

      if (leftovers.includes("memory.yml.lock")) {
        seen.lockLeft++;
        // Its record whole, or the name claimed empty with the record whole in the claimer's temp
        // file beside it: either way its owner is known dead, and the product's reclaim removes it.
        const status = readLockStatus(ProjectFs.openSync(lane.root), LOCK_FILE)!;
        expect(status, where).toMatchObject({ ownerAlive: false, stale: true });
        const records = status.record ? [status.record] : (status.creators ?? []).map((c) => c.record);
        expect(records, where).toEqual([expect.objectContaining({ proposal_id: SUPERSEDE, task_id: "workbench-apply" })]);
        if (!status.record) seen.emptyLock++;
        if (outcome === "before" && leftovers.some((f) => f.startsWith("memory.yml.tmp."))) lockedBefore ??= at;
        await expect(breakCoordLock(lane.projectId, { file: LOCK_FILE }), where).resolves.toMatchObject({ file: LOCK_FILE });
        // The lock is gone, and with it the temp file of a claimer cut off.
        expect(readTree(lane.coord).has("memory.yml.lock"), where).toBe(false);
        expect(
          [...readTree(lane.coord).keys()].filter((f) => f.startsWith("memory.yml.lock.tmp.")),
          where,
        ).toEqual([]);
      }
      await reset(lane);
      expect(await stored(lane), `${where}: reset`).toEqual(state.before.db);
    };

    // Each lane its own project, one kill at a time.
    await Promise.all(
      lanes.map(async (lane, l) => {
        for (let i = l; i < points.length; i += lanes.length) await check(lane, points[i]!);
      }),
    );
    console.log(`kill -9 memory apply: ${points.length} kill points over ${steps} steps:`, seen);
    expect(seen.before).toBeGreaterThan(0);
    expect(seen.after).toBeGreaterThan(0);
    expect(lockedBefore).not.toBeNull();

    // A lock left by a kill blocks the next apply until it is reclaimed, never longer: refused as
    // stale at once, removed by breakCoordLock (its owner is dead), then the apply goes through,
    // past the cut-off temp file, which the readers still pass over with a warning.
    const lane = lanes[0]!;
    expect((await apply(lane, lockedBefore!)).signal).toBe("SIGKILL");
    const refused = await apply(lane, 0);
    expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, code: "CONFLICT", message: expect.stringMatching(/looks stale \(.*owner dead\)/) });
    await breakCoordLock(lane.projectId, { file: LOCK_FILE });
    const done = await apply(lane, 0);
    expect(JSON.parse(done.stdout), done.stderr).toMatchObject({ ok: true, result: { event: { event_id: "M3" } } });
    const final = coordFiles(lane, beforeMemory);
    expect(final.files).toEqual(state.after.files);
    expect(final.leftovers).toEqual([expect.stringMatching(/^memory\.yml\.tmp\./)]);
    const snap = await readCoord(lane.root);
    expect(snap.memory?.events.map((e) => e.event_id)).toEqual(["M1", "M2", "M3"]);
    expect(snap.errors).toEqual([expect.objectContaining({ file: `.coord/${final.leftovers[0]}`, severity: "warning" })]);
    expect(await stored(lane)).toEqual(state.after.db);
  }, 240_000);
});
