import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";

const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");

// SQLite: each database test file gets its own file. PostgreSQL: one database for the
// run (files run one after another), emptied before each file.
if (!onPostgres) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-dbtest-"));
  process.env.WORKBENCH_DATA_DIR = dir;
  process.env.DATABASE_URL = `file:${path.join(dir, "test.db")}`;
} else {
  process.env.WORKBENCH_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "wb-dbtest-"));
}

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
