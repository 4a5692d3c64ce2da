import type { Command } from "commander";
import { stdout } from "../output";

/** `workbench db backup|restore <file>`: the database of DATABASE_URL (SQLite or PostgreSQL). */
export function registerDb(program: Command, setCode: (c: number) => void): void {
  const db = program.command("db").description("Back up and restore the Workbench database.");
  db.command("backup <file>")
    .description("Write a consistent backup while the app runs (SQLite: a database file; PostgreSQL: pg_dump -Fc).")
    .action(async (file: string) => {
      const { backupDatabase } = await import("../../lib/ops/backup");
      const r = await backupDatabase(file);
      stdout.line(`backed up the ${label(r.engine)} database to ${r.file} (${r.bytes} bytes, ${r.migrations} migrations)`);
      setCode(0);
    });
  db.command("restore <file>")
    .description("Replace the database with a backup, then apply newer migrations. Stop every Workbench process first.")
    .option("--force", "PostgreSQL: restore even while other connections use the database")
    .action(async (file: string, opts: { force?: boolean }) => {
      const { restoreDatabase } = await import("../../lib/ops/backup");
      const r = await restoreDatabase(file, { force: opts.force });
      const upgraded = r.migrated.length ? `; applied ${r.migrated.length} newer migration(s): ${r.migrated.join(", ")}` : "";
      const kept = r.previous ? `; the replaced database is kept at ${r.previous}` : "";
      stdout.line(`restored the ${label(r.engine)} database from ${file}${upgraded}${kept}`);
      setCode(0);
    });
}

const label = (k: string) => (k === "sqlite" ? "SQLite" : "PostgreSQL");
