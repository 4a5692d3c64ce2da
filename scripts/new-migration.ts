/**
 * Writes a migration for both engines from the change between the schema at the last
 * migration (kept as migrations/schema.snapshot.prisma) and the current schema.
 * Uses `prisma migrate diff` with two datamodels, which needs no shadow database
 * (the SQLite shadow path fails with multi-statement migrations, see PLATFORM.md).
 * Usage: npx tsx scripts/new-migration.ts <name>
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { postgresSchemaFrom } from "../lib/db/schema-sync";

const root = path.resolve(import.meta.dirname, "..");
const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: tsx scripts/new-migration.ts <snake_case_name>");
  process.exit(1);
}
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const sqliteSchema = fs.readFileSync(path.join(root, "prisma/sqlite/schema.prisma"), "utf8");
fs.writeFileSync(path.join(root, "prisma/postgres/schema.prisma"), postgresSchemaFrom(sqliteSchema));

const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-pgdiff-"));
const port = String(56000 + Math.floor(Math.random() * 1000));
const pgScript = path.join(root, "scripts/pg-test-server.sh");
execFileSync("bash", [pgScript, "start", pgDir, port], { stdio: "inherit" });
try {
  for (const engine of ["sqlite", "postgres"] as const) {
    const dir = path.join(root, "prisma", engine, "migrations");
    fs.mkdirSync(dir, { recursive: true });
    const snapshot = path.join(dir, "schema.snapshot.prisma");
    const current = path.join(root, "prisma", engine, "schema.prisma");
    const from = fs.existsSync(snapshot) ? ["--from-schema-datamodel", snapshot] : ["--from-empty"];
    const sql = execFileSync("npx", ["prisma", "migrate", "diff", "--config", `prisma/${engine}.config.ts`, ...from, "--to-schema-datamodel", current, "--script"], {
      cwd: root,
      encoding: "utf8",
      // The JS schema engine opens its adapter even for a datamodel-to-datamodel diff.
      env: { ...process.env, DATABASE_URL: engine === "postgres" ? `postgresql://postgres@127.0.0.1:${port}/postgres` : `file:${path.join(pgDir, "diff.db")}` },
    });
    if (!/\S/.test(sql.replace(/^--.*$/gm, ""))) {
      console.error(`${engine}: no schema change`);
      continue;
    }
    const target = path.join(dir, `${stamp}_${name}`);
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, "migration.sql"), sql);
    fs.copyFileSync(current, snapshot);
    console.error(`wrote ${path.relative(root, target)}/migration.sql`);
  }
} finally {
  execFileSync("bash", [pgScript, "stop", pgDir], { stdio: "inherit" });
  fs.rmSync(pgDir, { recursive: true, force: true });
}
