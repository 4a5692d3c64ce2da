import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";

const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");

// SQLite: each database test file gets its own file. PostgreSQL: each worker its own database
// (files run two at a time, one per worker), emptied before each file.
if (!onPostgres) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-dbtest-"));
  process.env.WORKBENCH_DATA_DIR = dir;
  process.env.DATABASE_URL = `file:${path.join(dir, "test.db")}`;
} else {
  process.env.WORKBENCH_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "wb-dbtest-"));
}

/**
 * The worker's own database beside the one the run was given (created when missing; the test
 * script creates both workers' up front). Switched before the test file loads, so whatever it
 * reads from DATABASE_URL, and the processes it starts, use the worker's database.
 */
async function useWorkerDatabase(): Promise<void> {
  const base = new URL((process.env.WORKBENCH_TEST_PG_BASE ??= process.env.DATABASE_URL!));
  const name = `${base.pathname.slice(1)}_w${process.env.VITEST_POOL_ID ?? "1"}`;
  if (!/^\w+$/.test(name)) throw new Error(`tests/db/setup.ts: unexpected database name ${name}`);
  const { default: pg } = await import("pg");
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  try {
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  base.pathname = `/${name}`;
  process.env.DATABASE_URL = base.toString();
}

if (onPostgres) await useWorkerDatabase();

beforeAll(async () => {
  if (!onPostgres) return;
  const { getDb } = await import("../../lib/db/client");
  const db = await getDb();
  await db.$executeRawUnsafe('TRUNCATE "Project", "User" CASCADE');
});

afterAll(async () => {
  const { closeDb } = await import("../../lib/db/client");
  await closeDb();
});
