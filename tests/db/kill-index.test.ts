/**
 * kill -9 at any step of `workbench index` (issue 31, point 3): the stored project is the index
 * of the folder before the run or the index of it after, never a mix, and the database still
 * answers readiness. Runs on the database of the run (SQLite, or PostgreSQL in CI's second run).
 * The folder flips between two contents A and B (a document rewritten, one added, a session
 * removed), so every kill point is a real change; each kill point is a step number of the
 * index run (tests/helpers/kill-switch.cjs: fs changes and database statements).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateProject } from "../../bench/generate-project";
import { readSql } from "../../lib/db/sql-tx";
import { readiness } from "../../lib/ops/readiness";
import { CLI, countSteps, killPoints, runWriter } from "../helpers/kill-points";
import { makeTempDir, removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

const TABLES = ["SourceFile", "IndexWarning", "TopicSource", "Topic", "Document", "GitBranch", "GitCommit", "DeepRun", "SearchEntry", "SearchSource"];
const SEARCH_TABLES = ["SearchEntry", "SearchSource"];
/** Columns that differ between two indexes of the same content: ids, times, and file mtimes. */
const VOLATILE = /^id$|Id$|At$|mtime|Ms$/i;

/** The project's stored index, table by table, without what differs between two runs over the same content. */
async function storedIndex(projectId: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of TABLES) {
    const rows = await readSql<Record<string, unknown>>(`SELECT * FROM "${t}" WHERE "projectId" = ?`, [projectId]);
    out[t] = rows.map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).filter(([k]) => !VOLATILE.test(k))), (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v))).sort();
  }
  return out;
}

const env = { DATABASE_URL: process.env.DATABASE_URL!, WORKBENCH_DATA_DIR: process.env.WORKBENCH_DATA_DIR! };

describe("kill -9 during workbench index", () => {
  let root = "";
  let projectId = "";
  let flip: (to: "A" | "B") => void = () => undefined;
  const index: Record<"A" | "B", Record<string, string[]>> = { A: {}, B: {} };
  let steps = 0;

  beforeAll(async () => {
    root = path.join(makeTempDir(), "project");
    const { workIds, documentPaths } = generateProject(root, { sessions: 12, documents: 16, tickets: 3, commits: 2, branches: 1 });
    const doc = path.join(root, documentPaths[0]!);
    const docA = fs.readFileSync(doc, "utf8");
    const added = path.join(root, path.dirname(documentPaths[1]!), "kill-added.md");
    const session = path.join(root, ".claude", "work", workIds[2]!);
    const parked = path.join(path.dirname(root), "parked-session");
    flip = (to) => {
      if (to === "A") {
        fs.writeFileSync(doc, docA);
        fs.rmSync(added, { force: true });
        if (fs.existsSync(parked)) fs.renameSync(parked, session);
      } else {
        fs.writeFileSync(doc, `${docA}\n\nThe quokkaledger section.\n`);
        fs.writeFileSync(added, "# Added\n\nquokkaledger again.\n");
        if (fs.existsSync(session)) fs.renameSync(session, parked);
      }
    };
    flip("A");
    const first = await runWriter([CLI, "index", root, "--json"], env, 0);
    expect(first.code, first.stderr).toBe(0);
    projectId = (await readSql<{ id: string }>(`SELECT "id" FROM "Project"`))[0]!.id;
    index.A = await storedIndex(projectId);
    flip("B");
    steps = (await countSteps([CLI, "index", root, "--json"], env)).steps;
    index.B = await storedIndex(projectId);
    expect(index.B).not.toEqual(index.A);
  }, 120_000);

  it("leaves the index of the folder before or after the run at every kill point, and stays ready", async () => {
    const points = killPoints(steps, 31);
    let stored: "A" | "B" = "B";
    const seen = { before: 0, after: 0, searchPending: 0 };
    // One database, one index at a time: each kill point starts from the state the last one left.
    for (const at of points) {
      const target: "A" | "B" = stored === "A" ? "B" : "A";
      flip(target);
      const r = await runWriter([CLI, "index", root, "--json"], env, at);
      expect(r.signal, `kill at step ${at} of ${steps}: ${r.stderr}`).toBe("SIGKILL");
      const now = await storedIndex(projectId);
      if (JSON.stringify(now) === JSON.stringify(index[stored])) seen.before++;
      else {
        // The search index is derived and synced after the index's commit: killed in between, it
        // may still be the old one, but then the run's pending mark makes the next run rebuild it.
        const mixed = TABLES.filter((t) => JSON.stringify(now[t]) !== JSON.stringify(index[target][t]));
        const searchOnly = mixed.every((t) => SEARCH_TABLES.includes(t));
        expect(searchOnly, `kill at step ${at} of ${steps}: tables neither before nor after: ${mixed.join(", ")}`).toBe(true);
        stored = target;
        seen.after++;
        if (mixed.length > 0) {
          expect((await readSql<{ record: string }>(`SELECT "record" FROM "IndexFreshness" WHERE "projectId" = ?`, [projectId]))[0]?.record).toBe('{"searchPending":true}');
          // One restart proves the repair (each costs a whole index run).
          if (seen.searchPending++ === 0) {
            const again = await runWriter([CLI, "index", root, "--json"], env, 0);
            expect(again.code, again.stderr).toBe(0);
            expect(await storedIndex(projectId), `kill at step ${at}: the next run repairs the search index`).toEqual(index[target]);
          }
        }
      }
      expect((await readiness({ collab: null })).status).toBe("ready");
    }
    // Both outcomes occur: the loop kills before and after the index's commit.
    expect(seen.before).toBeGreaterThan(0);
    expect(seen.after).toBeGreaterThan(0);
    console.log(`kill -9 index: ${points.length} kill points over ${steps} steps:`, seen);
    // After the kills, an index run completes and stores the folder as it is.
    const target: "A" | "B" = stored === "A" ? "B" : "A";
    flip(target);
    const done = await runWriter([CLI, "index", root, "--json"], env, 0);
    expect(done.code, done.stderr).toBe(0);
    expect(await storedIndex(projectId)).toEqual(index[target]);
  }, 240_000);
});
