/**
 * kill -9 at any step of a backup and of a restore (issue 31, point 3), on the database of the
 * run (SQLite, or PostgreSQL in CI's second run). A backup file is the previous backup under that
 * name or the new one whole, never part of one; nothing else beside it looks like a backup; the
 * database is untouched and ready. A restored database is the one before the restore or the
 * backup's, never a mix, and ready; the copy a SQLite restore keeps of the replaced database is
 * whole or absent. Each kill point is a step number of the writer's process
 * (tests/helpers/kill-switch.cjs: fs changes and database statements); the writer is
 * lib/ops/backup.ts in a process of its own (tests/helpers/backup-writer.ts, bundled), and the
 * real `workbench db backup|restore` finishes after the kills.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb } from "../../lib/db/client";
import { databaseKind, sqliteFileUrl } from "../../lib/db/database-url";
import { pgBinary } from "../../lib/ops/backup";
import { readiness } from "../../lib/ops/readiness";
import { indexFolder } from "../helpers/db";
import { CLI, REPO, countSteps, eachBounded, killPoints, runWriter } from "../helpers/kill-points";
import { ProjectBuilder, makeTempDir, removeTempDirs } from "../helpers/project-builder";

const kind = databaseKind();
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  removeTempDirs();
});

/** The writer bundled (packages left to node_modules, so under the repository): it starts in a fraction of tsx's time. */
async function bundleWriter(): Promise<string> {
  const { build } = await import("esbuild");
  fs.mkdirSync(path.join(REPO, ".tmp"), { recursive: true });
  const dir = fs.mkdtempSync(path.join(REPO, ".tmp", "kill-backup-"));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, "backup-writer.mjs");
  await build({ absWorkingDir: REPO, entryPoints: ["tests/helpers/backup-writer.ts"], bundle: true, platform: "node", target: "node20", format: "esm", packages: "external", outfile: file, logLevel: "warning" });
  return file;
}

const json = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? String(x) : x instanceof Uint8Array ? Buffer.from(x).toString("base64") : x));

/** Every row of every table of a database (SQLite file or PostgreSQL URL), table by table. */
async function dbContent(url: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  if (kind === "sqlite") {
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(sqliteFileUrl(url).slice("file:".length), { readonly: true, fileMustExist: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[];
      for (const { name } of tables) out[name] = (db.prepare(`SELECT * FROM "${name}"`).all() as unknown[]).map(json).sort();
    } finally {
      db.close();
    }
    return out;
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1");
    for (const { name } of tables.rows) out[name] = (await client.query(`SELECT * FROM "${name}"`)).rows.map(json).sort();
  } finally {
    await client.end();
  }
  return out;
}

/** What a backup file holds: the database it copies (SQLite), the script it restores as (pg_dump archive; fails when cut short). */
async function backupContent(file: string): Promise<string> {
  if (kind === "sqlite") return json(await dbContent(`file:${file}`));
  const r = spawnSync(pgBinary("pg_restore"), ["--file=-", file], { encoding: "utf8", maxBuffer: 256 << 20 });
  if (r.status !== 0) throw new Error(`pg_restore: ${r.stderr}`);
  // Newer pg_restore fences the script with a random key; the rest is the archive's.
  return r.stdout.replace(/^\\(un)?restrict .*$/gm, "");
}

/** Files beside a backup (or database) that a killed run may leave: its own hidden temps, and SQLite's files beside them. */
const TEMP = /^\..+\.\d+\.tmp(-wal|-shm|-journal)?$/;
const strays = (dir: string, keep: string[]): string[] => fs.readdirSync(dir).filter((n) => !keep.includes(n));

describe(`kill -9 during backup and restore (${kind})`, () => {
  let writer = "";
  let env: Record<string, string> = {};
  const content: Record<"A" | "B", Record<string, string[]>> = { A: {}, B: {} };
  const backupOf: Record<"A" | "B", string> = { A: "", B: "" };
  let dir = "";

  beforeAll(async () => {
    writer = await bundleWriter();
    env = { DATABASE_URL: process.env.DATABASE_URL!, WORKBENCH_DATA_DIR: process.env.WORKBENCH_DATA_DIR!, WORKBENCH_APP_ROOT: REPO };
    dir = makeTempDir("wb-kill-backup-");
    // Two states of the database: one project (A), then a second one beside it (B).
    await indexFolder(new ProjectBuilder().workState("K-1", { type: "epic", status: "in_progress" }).workState("K-2", { type: "task", status: "done" }).root);
    await closeDb();
    content.A = await dbContent(env.DATABASE_URL!);
    backupOf.A = path.join(dir, "A.bak");
    expect((await runWriter([writer, "backup", backupOf.A], env, 0)).code).toBe(0);
    await indexFolder(new ProjectBuilder().workState("L-1", { type: "task", status: "todo" }).root);
    await closeDb();
    content.B = await dbContent(env.DATABASE_URL!);
    backupOf.B = path.join(dir, "B.bak");
    expect((await runWriter([writer, "backup", backupOf.B], env, 0)).code).toBe(0);
    expect(content.B).not.toEqual(content.A);
  }, 60_000);

  it("a backup killed at any step leaves the previous backup or the new one whole under its name", async () => {
    const t0 = performance.now();
    // The folder before: last run's backup (state A) under the name; the database is at B.
    const pristine = path.join(dir, "bk-pristine");
    fs.mkdirSync(pristine);
    fs.copyFileSync(backupOf.A, path.join(pristine, "wb.bak"));
    const before = fs.readFileSync(backupOf.A);
    const fresh = (name: string) => {
      const d = path.join(dir, name);
      fs.cpSync(pristine, d, { recursive: true });
      return path.join(d, "wb.bak");
    };
    const counted = fresh("bk-count");
    const { steps } = await countSteps([writer, "backup", counted], env);
    const after = await backupContent(counted);
    expect(after).not.toBe(await backupContent(backupOf.A));
    expect(strays(path.dirname(counted), ["wb.bak"])).toEqual([]);

    const points = killPoints(steps, 31);
    const seen = { before: 0, after: 0, tempsLeft: 0 };
    let withTemps = "";
    await eachBounded(points, 2, async (at, i) => {
      const file = fresh(`bk-${i}`);
      const r = await runWriter([writer, "backup", file], env, at);
      const where = `kill at step ${at} of ${steps}`;
      expect(r.signal, `${where}: ${r.stderr}`).toBe("SIGKILL");
      if (fs.readFileSync(file).equals(before)) seen.before++;
      else {
        // Not the previous file: then the new backup, whole (a cut archive or database fails to read here).
        expect(await backupContent(file), where).toBe(after);
        seen.after++;
      }
      // Nothing else beside it passes for a backup: only the killed run's hidden temps.
      const left = strays(path.dirname(file), ["wb.bak"]);
      for (const n of left) expect(n, where).toMatch(TEMP);
      if (left.length > 0) {
        seen.tempsLeft++;
        withTemps = file;
      }
      expect((await readiness({ collab: null })).status, where).toBe("ready");
    });
    expect(seen.before).toBeGreaterThan(0);
    expect(seen.after).toBeGreaterThan(0);
    expect(await dbContent(env.DATABASE_URL!), "a backup changes nothing in the database").toEqual(content.B);
    console.log(`kill -9 backup (${kind}): ${points.length} kill points over ${steps} steps in ${Math.round(performance.now() - t0)} ms:`, seen);

    // The CLI after the kills: the new backup whole, and the killed run's temps gone.
    const file = withTemps || fresh("bk-cli");
    const done = await runWriter([CLI, "db", "backup", file], env, 0);
    expect(done.code, done.stderr).toBe(0);
    expect(await backupContent(file)).toBe(after);
    expect(strays(path.dirname(file), ["wb.bak"])).toEqual([]);
  }, 120_000);

  it("a restore killed at any step leaves the database before it or the backup's, and ready", async () => {
    const t0 = performance.now();
    const seen = { before: 0, after: 0 };
    const check = async (url: string, expected: Record<"before" | "after", Record<string, string[]>>, where: string): Promise<"before" | "after"> => {
      const now = await dbContent(url);
      const outcome = json(now) === json(expected.before) ? "before" : json(now) === json(expected.after) ? "after" : null;
      expect(outcome, `${where}: the database is neither the one before the restore nor the backup's`).not.toBeNull();
      expect((await readiness({ collab: null, url })).status, where).toBe("ready");
      seen[outcome!]++;
      return outcome!;
    };

    if (kind === "sqlite") {
      // Each kill point restores backup A into its own copy of the database at B.
      const live = sqliteFileUrl(env.DATABASE_URL).slice("file:".length);
      const pristine = path.join(dir, "rs-pristine");
      fs.mkdirSync(pristine);
      for (const side of ["", "-wal", "-shm"]) if (fs.existsSync(live + side)) fs.copyFileSync(live + side, path.join(pristine, `wb.db${side}`));
      const fresh = (name: string) => {
        const d = path.join(dir, name);
        fs.cpSync(pristine, d, { recursive: true });
        return { db: path.join(d, "wb.db"), env: { ...env, DATABASE_URL: `file:${path.join(d, "wb.db")}`, WORKBENCH_DATA_DIR: d } };
      };
      const counted = fresh("rs-count");
      const { steps } = await countSteps([writer, "restore", backupOf.A], counted.env);
      expect(await dbContent(counted.env.DATABASE_URL)).toEqual(content.A);
      const points = killPoints(steps, 31);
      let withTemps: ReturnType<typeof fresh> | null = null;
      await eachBounded(points, 2, async (at, i) => {
        const target = fresh(`rs-${i}`);
        const r = await runWriter([writer, "restore", backupOf.A], target.env, at);
        const where = `kill at step ${at} of ${steps}`;
        expect(r.signal, `${where}: ${r.stderr}`).toBe("SIGKILL");
        await check(target.env.DATABASE_URL, { before: content.B, after: content.A }, where);
        // The copy kept of the replaced database, named in the restore's answer: whole, or not there.
        const previous = `${target.db}.before-restore`;
        if (fs.existsSync(previous)) expect(await dbContent(`file:${previous}`), where).toEqual(content.B);
        const left = strays(path.dirname(target.db), ["wb.db", "wb.db-wal", "wb.db-shm", "wb.db.before-restore"]);
        for (const n of left) expect(n, where).toMatch(TEMP);
        if (left.length > 0) withTemps = target;
      });
      console.log(`kill -9 restore (sqlite): ${points.length} kill points over ${steps} steps in ${Math.round(performance.now() - t0)} ms:`, seen);
      // The CLI after the kills: the backup's database, the killed run's temps gone.
      const target: ReturnType<typeof fresh> = withTemps ?? fresh("rs-cli");
      const done = await runWriter([CLI, "db", "restore", backupOf.A], target.env, 0);
      expect(done.code, done.stderr).toBe(0);
      expect(await dbContent(target.env.DATABASE_URL)).toEqual(content.A);
      expect(strays(path.dirname(target.db), ["wb.db", "wb.db-wal", "wb.db-shm", "wb.db.before-restore"])).toEqual([]);
    } else {
      // PostgreSQL: a database per lane, flipped between A and B by each restore (from whatever the last kill left).
      const { default: pg } = await import("pg");
      const admin = new pg.Client({ connectionString: env.DATABASE_URL });
      await admin.connect();
      cleanups.push(() => admin.end());
      const lanes = [0, 1].map((l) => {
        const u = new URL(env.DATABASE_URL!);
        const name = `${u.pathname.slice(1)}_kill${l}`;
        u.pathname = `/${name}`;
        return { name, url: u.toString(), at: "B" as "A" | "B" };
      });
      for (const lane of lanes) {
        await admin.query(`DROP DATABASE IF EXISTS "${lane.name}"`);
        await admin.query(`CREATE DATABASE "${lane.name}"`);
        cleanups.push(async () => void (await admin.query(`DROP DATABASE IF EXISTS "${lane.name}" WITH (FORCE)`)));
        const r = await runWriter([writer, "restore", backupOf.B], { ...env, DATABASE_URL: lane.url }, 0);
        expect(r.code, r.stderr).toBe(0);
      }
      /** A killed writer's connection ends a moment after it: the next restore waits for the server to see it gone. */
      const quiet = async (name: string) => {
        for (;;) {
          const r = await admin.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1", [name]);
          if (Number(r.rows[0]!.n) === 0) return;
          await new Promise((resolve) => setImmediate(resolve));
        }
      };
      const lane0 = lanes[0]!;
      const { steps } = await countSteps([writer, "restore", backupOf.A], { ...env, DATABASE_URL: lane0.url });
      lane0.at = "A";
      expect(await dbContent(lane0.url)).toEqual(content.A);
      const points = killPoints(steps, 31);
      // Two lanes, each with its own database: points alternate between them.
      await Promise.all(
        lanes.map(async (lane, l) => {
          for (let i = l; i < points.length; i += 2) {
            const to: "A" | "B" = lane.at === "A" ? "B" : "A";
            await quiet(lane.name);
            const r = await runWriter([writer, "restore", backupOf[to]], { ...env, DATABASE_URL: lane.url }, points[i]!);
            const where = `kill at step ${points[i]} of ${steps}`;
            expect(r.signal, `${where}: ${r.stderr}`).toBe("SIGKILL");
            if ((await check(lane.url, { before: content[lane.at], after: content[to] }, where)) === "after") lane.at = to;
          }
        }),
      );
      console.log(`kill -9 restore (postgres): ${points.length} kill points over ${steps} steps in ${Math.round(performance.now() - t0)} ms:`, seen);
      // The CLI after the kills: the other state's backup, restored whole.
      const to: "A" | "B" = lane0.at === "A" ? "B" : "A";
      await quiet(lane0.name);
      const done = await runWriter([CLI, "db", "restore", backupOf[to]], { ...env, DATABASE_URL: lane0.url }, 0);
      expect(done.code, done.stderr).toBe(0);
      expect(await dbContent(lane0.url)).toEqual(content[to]);
    }
    expect(seen.before).toBeGreaterThan(0);
    expect(seen.after).toBeGreaterThan(0);
  }, 120_000);
});
