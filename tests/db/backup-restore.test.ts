import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "../../lib/db/client";
import { databaseKind, sqliteFileUrl } from "../../lib/db/database-url";
import { migratePostgres, migrateSqlite, migrationNames } from "../../lib/db/migrate";
import { deleteProject } from "../../lib/db/repositories/projects";
import { backupDatabase, restoreDatabase } from "../../lib/ops/backup";
import { appliedMigrations } from "../../lib/ops/readiness";
import { indexFolder, rowCounts, topicTable } from "../helpers/db";
import { ProjectBuilder, REPO_ROOT, makeTempDir, removeTempDirs } from "../helpers/project-builder";
import { runWorkbench } from "../helpers/run-cli";

afterAll(removeTempDirs);

const kind = databaseKind();
const names = () => migrationNames(kind);

/** A database that only has the migrations before the last one: what an older Workbench left behind. */
async function olderDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const root = makeTempDir("wb-oldroot-");
  const all = names();
  for (const n of all.slice(0, -1)) fs.cpSync(path.join(REPO_ROOT, "prisma", kind, "migrations", n), path.join(root, "prisma", kind, "migrations", n), { recursive: true });
  const saved = process.env.WORKBENCH_APP_ROOT;
  process.env.WORKBENCH_APP_ROOT = root;
  try {
    if (kind === "sqlite") {
      const file = path.join(makeTempDir("wb-old-"), "old.db");
      await migrateSqlite(file);
      return { url: `file:${file}`, drop: async () => undefined };
    }
    const { default: pg } = await import("pg");
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const name = `wb_old_${process.pid}`;
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(process.env.DATABASE_URL!);
    u.pathname = `/${name}`;
    await migratePostgres(u.toString());
    return {
      url: u.toString(),
      drop: async () => {
        const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name}`);
        await c.end();
      },
    };
  } finally {
    if (saved === undefined) delete process.env.WORKBENCH_APP_ROOT;
    else process.env.WORKBENCH_APP_ROOT = saved;
  }
}

const workbench = (args: string[]) => runWorkbench(args, { env: { ...process.env } });

describe(`backup and restore (${kind})`, () => {
  it("round trip: indexed data deleted after the backup is back after the restore, migrations current", async () => {
    const b = new ProjectBuilder().workState("P-1", { type: "epic", status: "in_progress" }).workState("P-2", { type: "task", status: "done" });
    const { projectId } = await indexFolder(b.root);
    const counts = await rowCounts(projectId);
    const topics = await topicTable(projectId);
    expect(counts.topics).toBe(2);

    const file = path.join(makeTempDir("wb-backup-"), "nested", kind === "sqlite" ? "wb.db" : "wb.dump");
    const backup = await backupDatabase(file);
    expect(backup).toMatchObject({ engine: kind, file, migrations: names().length });
    expect(backup.bytes).toBeGreaterThan(0);

    await deleteProject(projectId);
    expect((await rowCounts(projectId)).topics).toBe(0);

    // The app holds the database: the restore refuses and changes nothing.
    await expect(restoreDatabase(file)).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/stop (the|every) Workbench/) });
    expect((await rowCounts(projectId)).topics).toBe(0);

    await closeDb(); // "stop the app"
    const restored = await restoreDatabase(file);
    expect(restored).toMatchObject({ engine: kind, migrated: [] });
    if (kind === "sqlite") expect(fs.existsSync(restored.previous!)).toBe(true);

    expect(await rowCounts(projectId)).toEqual(counts);
    expect(await topicTable(projectId)).toEqual(topics);
    expect((await appliedMigrations()).sort()).toEqual(names());
  });

  it("an older backup is upgraded by the migrations after the restore", async () => {
    const old = await olderDatabase();
    try {
      const file = path.join(makeTempDir("wb-backup-"), "old.bak");
      expect((await backupDatabase(file, old.url)).migrations).toBe(names().length - 1);
      await closeDb();
      const restored = await restoreDatabase(file);
      expect(restored.migrated).toEqual(names().slice(-1));
      expect((await appliedMigrations()).sort()).toEqual(names());
      await getDb();
    } finally {
      await old.drop();
    }
  });

  it("a damaged backup is refused and the database keeps its data", async () => {
    const b = new ProjectBuilder().workState("D-1", { type: "epic", status: "in_progress" });
    const { projectId } = await indexFolder(b.root);
    const file = path.join(makeTempDir("wb-backup-"), "full.bak");
    await backupDatabase(file);
    const cut = file + ".cut";
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await closeDb();
    await expect(restoreDatabase(cut)).rejects.toThrow();
    expect((await rowCounts(projectId)).topics).toBe(1);
    expect((await appliedMigrations()).sort()).toEqual(names());
  });

  it("refuses files that are not a Workbench backup of this engine", async () => {
    await closeDb();
    const dir = makeTempDir("wb-bad-");
    const text = path.join(dir, "notes.txt");
    fs.writeFileSync(text, "hello");
    await expect(restoreDatabase(text)).rejects.toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining("neither") });
    const other = path.join(dir, "other");
    fs.writeFileSync(other, kind === "sqlite" ? "PGDMP\u0001\u000e" : "SQLite format 3\0" + "x".repeat(100));
    await expect(restoreDatabase(other)).rejects.toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining("DATABASE_URL selects") });
    await expect(restoreDatabase(path.join(dir, "missing"))).rejects.toMatchObject({ code: "NOT_FOUND" });
    if (kind === "sqlite") {
      const foreign = path.join(dir, "foreign.db");
      const { default: Database } = await import("better-sqlite3");
      const db = new Database(foreign);
      db.exec("CREATE TABLE t (x)");
      db.close();
      await expect(restoreDatabase(foreign)).rejects.toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining("_workbench_migrations") });
      expect(fs.existsSync(sqliteFileUrl().slice("file:".length))).toBe(true);
    }
  });

  it("workbench db backup / db restore", async () => {
    await closeDb();
    const file = path.join(makeTempDir("wb-cli-backup-"), "cli.bak");
    const backup = await workbench(["db", "backup", file]);
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(new RegExp(`^backed up the ${kind === "sqlite" ? "SQLite" : "PostgreSQL"} database to .*cli\\.bak`));
    const restore = await workbench(["db", "restore", file]);
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/^restored /);
    const missing = await workbench(["db", "restore", file + ".nope"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^ERROR: No backup file/);
  });
});
