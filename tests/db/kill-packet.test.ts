/**
 * kill -9 at any step of packet saves and of a review round (issue 31, point 3): the packet's
 * stored rows (the packet, its revisions, review events, comments, snapshots, co-editing state,
 * agent activity, and its search entry) are those before a write or those after it, never a mix,
 * and the database still answers readiness. Runs on the database of the run (SQLite, or
 * PostgreSQL in CI's second run). An action's writes (tests/helpers/packet-writes.ts: the service
 * calls the API routes make) run in a process of their own (tests/helpers/packet-writer.ts),
 * killed just before one of its write steps (tests/helpers/kill-switch.cjs). Every kill point
 * gets a packet of its own in the same starting state, so no point depends on what the one
 * before left.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commentOnPacket, reviewPacket } from "../../lib/collab/service";
import { readSql } from "../../lib/db/sql-tx";
import { readiness } from "../../lib/ops/readiness";
import { createProjectPacket } from "../../lib/packets/service";
import { addProject } from "../../lib/projects/add-project";
import { PACKET_WRITES, type PacketAction as Action } from "../helpers/packet-writes";
import { bundleWriter, countSteps, eachBounded, KILL_POINTS, killPoints, REPO, runWriter } from "../helpers/kill-points";
import { FIXTURES, makeTempDir, removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

/** The packet's rows, table by table, by the column that ties them to it. */
const TABLES: [table: string, key: string][] = [
  ["Packet", "id"],
  ["PacketRevision", "packetId"],
  ["PacketReviewEvent", "packetId"],
  ["PacketComment", "packetId"],
  ["PacketSnapshot", "packetId"],
  ["PacketDoc", "packetId"],
  ["AgentActivity", "packetId"],
  ["SearchEntry", "ref"],
];
/** What differs between two packets written alike: ids, times, and what is derived from them. */
const VOLATILE = /^(id|packetId|projectId|createdAt|updatedAt|resolvedAt|date|hash)$/;

/** A packet's stored rows without what differs between two packets that went through the same writes. */
async function storedPacket(packetId: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [table, key] of TABLES) {
    const rows = await readSql<Record<string, unknown>>(`SELECT * FROM "${table}" WHERE "${key}" = ?`, [packetId]);
    out[table] = rows
      .map((r) => {
        const kept = Object.entries(r).filter(([k]) => !VOLATILE.test(k));
        // A thread is named by its root comment's id: only whether a comment roots its own thread is stable.
        const thread = "threadId" in r ? [["threadId", r.threadId === r.id ? "own" : r.threadId === "pending" ? "pending" : "other"]] : [];
        const row = Object.fromEntries([...kept.filter(([k]) => k !== "threadId"), ...thread]);
        return JSON.stringify(row, (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v)).replaceAll(packetId, "<packet>");
      })
      .sort();
  }
  return out;
}

const mismatched = (now: Record<string, string[]>, want: Record<string, string[]>) => TABLES.map(([t]) => t).filter((t) => JSON.stringify(now[t]) !== JSON.stringify(want[t]));

describe("kill -9 during a packet save and a review action", () => {
  const env = { DATABASE_URL: process.env.DATABASE_URL!, WORKBENCH_DATA_DIR: process.env.WORKBENCH_DATA_DIR!, WORKBENCH_APP_ROOT: REPO };
  let writer = { file: "", dispose: () => undefined as void };
  let projectId = "";
  const brief = fs.readFileSync(path.join(FIXTURES, "packets", "reference-bug-brief.md"), "utf8");

  /** A packet in the state the action starts from, with a comment thread: saves go over an approved revision, a review round meets one in review. */
  async function startingPacket(action: Action): Promise<string> {
    const id = (await createProjectPacket(projectId, { markdown: brief })).id;
    await reviewPacket(projectId, id, { action: "request_review", actor: "Ada" });
    if (action === "save") await reviewPacket(projectId, id, { action: "approve", actor: "Grace", revision: 1 });
    await commentOnPacket(projectId, id, { section: "Desired behavior", body: "Say where it breaks.", author: "Grace" });
    return id;
  }

  const run = (action: Action, packetId: string, killAt: number) => runWriter([writer.file, action, projectId, packetId], env, killAt);

  /** Where each action's writing starts and ends, in steps, and the rows it may leave: before it, and after each of its writes. */
  const plan = {} as Record<Action, { warm: number; steps: number; states: Record<string, string[]>[] }>;

  beforeAll(async () => {
    writer = await bundleWriter(path.join(REPO, "tests", "helpers", "packet-writer.ts"));
    projectId = (await addProject({ path: makeTempDir() })).id;
    for (const action of ["save", "review"] as const) {
      // The state after each write: the first k writes made here, on a packet of their own.
      const states: Record<string, string[]>[] = [];
      for (let k = 0; k <= PACKET_WRITES[action].length; k++) {
        const id = await startingPacket(action);
        for (const write of PACKET_WRITES[action].slice(0, k)) await write(projectId, id);
        states.push(await storedPacket(id));
        if (k > 0) expect(mismatched(states[k]!, states[k - 1]!).length, `${action}: write ${k} changes the packet's rows`).toBeGreaterThan(0);
      }
      const id = await startingPacket(action);
      // Starting up, loading and reading the packet write nothing: kill points start where the writes do.
      const warm = (await countSteps([writer.file, "warm", projectId, id], env)).steps;
      expect(await storedPacket(id)).toEqual(states[0]);
      const { steps } = await countSteps([writer.file, action, projectId, id], env);
      // The writer's process stores what the same writes store here.
      expect(await storedPacket(id)).toEqual(states.at(-1));
      plan[action] = { warm, steps, states };
    }
    // A save over an approved revision: a new revision, the packet's head, title and status, the event sending it back to draft, and its search entry.
    expect(mismatched(plan.save.states[1]!, plan.save.states[0]!)).toEqual(["Packet", "PacketRevision", "PacketReviewEvent", "SearchEntry"]);
    // A decision: the packet's status, its event, and the status in the search entry.
    expect(mismatched(plan.review.states[5]!, plan.review.states[4]!)).toEqual(["Packet", "PacketReviewEvent", "SearchEntry"]);
  }, 120_000);

  afterAll(() => writer.dispose());

  for (const [action, seed] of [
    ["save", 31],
    ["review", 32],
  ] as const) {
    it(`leaves the rows as they were before or after each write of a ${action} at every kill point, and stays ready`, async () => {
      const { warm, steps, states } = plan[action];
      const points = killPoints(steps - warm, seed).map((p) => warm + p);
      /** Kill points that left each state: before the action, after its first write, … */
      const seen = states.map(() => 0);
      const started = Date.now();
      // Two at a time: each kill point has a packet of its own.
      await eachBounded(points, 2, async (at) => {
        const id = await startingPacket(action);
        const r = await run(action, id, at);
        const where = `${action} killed before step ${at} of ${steps}`;
        expect(r.signal, `${where}: ${r.stderr}`).toBe("SIGKILL");
        const now = await storedPacket(id);
        const state = states.findIndex((s) => mismatched(now, s).length === 0);
        expect(state, `${where}: a mix; ${states.map((s, i) => `from state ${i} differs in ${mismatched(now, s).join(", ")}`).join("; ")}`).toBeGreaterThanOrEqual(0);
        seen[state] = seen[state]! + 1;
        expect((await readiness({ collab: null })).status, where).toBe("ready");
      });
      console.log(`kill -9 packet ${action}: ${points.length} kill points over steps ${warm + 1}..${steps} in ${Date.now() - started} ms; kill points per state left (before, after each write):`, seen);
      expect(new Set(points).size, "distinct kill points").toBeGreaterThanOrEqual(KILL_POINTS);
      // Every outcome occurs: the loop kills before, between and after the writes' commits.
      for (const n of seen) expect(n).toBeGreaterThan(0);
      // After the kills, the same action completes.
      const id = await startingPacket(action);
      const done = await run(action, id, 0);
      expect(done.code, done.stderr).toBe(0);
      expect(await storedPacket(id)).toEqual(states.at(-1));
      // A shared 2-core machine can take several times the ~30 s this takes alone.
    }, 300_000);
  }
});
