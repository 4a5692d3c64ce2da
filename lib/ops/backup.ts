import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readEnv } from "../core/env";
import { WorkbenchError } from "../core/errors";
import { syncDir } from "../core/fs/atomic-write";
import { databaseKind, postgresUrl, sqliteFileUrl, type DatabaseKind } from "../db/database-url";
import { closeReaders } from "../db/read-connection";
import { migrationNames, migratePostgres, migrateSqlite } from "../db/migrate";
import { plural } from "../core/plural";
import { processAlive } from "../core/process-alive";

/**
 * Backup and restore of the Workbench database. SQLite: an online copy through SQLite's
 * backup API (consistent while the app writes); restore replaces the file in one rename,
 * only while no process has it open. PostgreSQL: `pg_dump -Fc`; restore empties the
 * schema and loads the dump in one transaction, so a failed restore leaves the old data.
 * Either way the restored database is then migrated, so an older backup is upgraded.
 *
 * Killed at any moment (kill -9, tests/db/kill-backup.test.ts), nothing is half done under a
 * real name: a backup file is the previous one or the new one whole (written beside it, fsynced,
 * renamed, the folder fsynced), the database is the one before the restore or the restored one,
 * and the copy kept of the replaced database is whole or absent. The temp files a killed run
 * left are removed by the next backup or restore beside them.
 */
export interface BackupResult {
  engine: DatabaseKind;
  file: string;
  bytes: number;
  /** Migrations the backup contains. */
  migrations: number;
}

export interface RestoreResult {
  engine: DatabaseKind;
  file: string;
  /** Migrations applied on top of the backup (an older backup is upgraded). */
  migrated: string[];
  /** SQLite: where the replaced database file was kept. */
  previous?: string;
}

const SQLITE_MAGIC = "SQLite format 3\0";
const PGDUMP_MAGIC = "PGDMP";
const TABLE = "_workbench_migrations";

function fileKind(file: string): DatabaseKind | null {
  const fd = fs.openSync(file, "r");
  try {
    const buf = Buffer.alloc(16);
    const n = fs.readSync(fd, buf, 0, 16, 0);
    const head = buf.subarray(0, n).toString("latin1");
    if (head === SQLITE_MAGIC) return "sqlite";
    if (head.startsWith(PGDUMP_MAGIC)) return "postgres";
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/** Refuses a backup taken by a newer Workbench: this version could not run on it. */
function checkKnown(names: string[], kind: DatabaseKind): void {
  const known = new Set(migrationNames(kind));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length) throw new WorkbenchError("CONFLICT", `The backup comes from a newer Workbench (migrations ${unknown.join(", ")}): upgrade the Workbench first, then restore.`);
}

/** Written beside the target and renamed into place, so a crash never leaves half a backup under the real name. */
function tempBeside(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
}

const SQLITE_SIDES = ["-wal", "-shm", "-journal"];

/** Removes the temp files (and SQLite's files beside them) that killed runs left beside `file`; a running one's stay. */
function removeDeadTemps(file: string): void {
  const dir = path.dirname(file);
  const prefix = `.${path.basename(file)}.`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)\.tmp(-wal|-shm|-journal)?$/.exec(name.slice(prefix.length));
    if (m && !processAlive(Number(m[1])) && fs.lstatSync(path.join(dir, name)).isFile()) fs.rmSync(path.join(dir, name), { force: true });
  }
}

/** Flushes a file's bytes to the disk: before it is renamed into place, so the new name never shows less than the whole file. */
function fsyncFile(file: string): void {
  const fd = fs.openSync(file, "r+");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** `tmp` (written, not yet flushed) renamed over `file`, both flushed to the disk. */
function putInPlace(tmp: string, file: string): void {
  fsyncFile(tmp);
  fs.renameSync(tmp, file);
  syncDir(path.dirname(file));
}

export async function backupDatabase(file: string, url = readEnv("DATABASE_URL")): Promise<BackupResult> {
  const out = path.resolve(file);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  removeDeadTemps(out);
  const tmp = tempBeside(out);
  try {
    if (databaseKind(url) === "postgres") {
      await pgTool("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--file=${tmp}`], postgresUrl(url));
      const migrations = (await pgDumpMigrations(tmp)).length;
      putInPlace(tmp, out);
      return { engine: "postgres", file: out, bytes: fs.statSync(out).size, migrations };
    }
    const src = sqliteFileUrl(url).slice("file:".length);
    if (!fs.existsSync(src)) throw new WorkbenchError("NOT_FOUND", `No database at ${src}: nothing to back up.`);
    if (path.resolve(src) === out) throw new WorkbenchError("INVALID_INPUT", "The backup file cannot be the database itself.");
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(src, { fileMustExist: true, timeout: 10_000 });
    try {
      await db.backup(tmp);
    } finally {
      db.close();
    }
    // A single self-contained file: the copy inherits WAL mode, which would need a -shm beside it to be read.
    const copy = new Database(tmp);
    let migrations: number;
    try {
      copy.pragma("journal_mode = DELETE");
      migrations = sqliteMigrations(copy).length;
    } finally {
      copy.close();
    }
    putInPlace(tmp, out);
    return { engine: "sqlite", file: out, bytes: fs.statSync(out).size, migrations };
  } finally {
    for (const side of ["", ...SQLITE_SIDES]) fs.rmSync(tmp + side, { force: true });
  }
}

export async function restoreDatabase(file: string, opts: { url?: string; force?: boolean } = {}): Promise<RestoreResult> {
  const url = opts.url ?? readEnv("DATABASE_URL");
  const src = path.resolve(file);
  if (!fs.existsSync(src) || !fs.statSync(src).isFile()) throw new WorkbenchError("NOT_FOUND", `No backup file at ${src}.`);
  const engine = databaseKind(url);
  const kind = fileKind(src);
  if (kind === null) throw new WorkbenchError("INVALID_INPUT", `${src} is neither a SQLite database nor a pg_dump custom-format archive.`);
  if (kind !== engine) {
    throw new WorkbenchError("INVALID_INPUT", `${src} is a ${kind === "sqlite" ? "SQLite" : "PostgreSQL"} backup, but DATABASE_URL selects ${engine === "sqlite" ? "SQLite" : "PostgreSQL"}.`);
  }
  return engine === "postgres" ? restorePostgres(src, postgresUrl(url), opts.force ?? false) : restoreSqlite(src, sqliteFileUrl(url).slice("file:".length));
}

// ---- SQLite

type SqliteDb = import("better-sqlite3").Database;

function sqliteMigrations(db: SqliteDb): string[] {
  const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?").get(TABLE);
  if (!table) throw new WorkbenchError("INVALID_INPUT", `Not a Workbench database: it has no ${TABLE} table.`);
  return (db.prepare(`SELECT name FROM ${TABLE}`).all() as { name: string }[]).map((r) => r.name);
}

async function restoreSqlite(src: string, target: string): Promise<RestoreResult> {
  const { default: Database } = await import("better-sqlite3");
  const backup = new Database(src, { readonly: true, fileMustExist: true });
  try {
    const check = backup.pragma("quick_check", { simple: true });
    if (check !== "ok") throw new WorkbenchError("UNREADABLE", `The backup is damaged: ${String(check)}.`);
    checkKnown(sqliteMigrations(backup), "sqlite");
  } catch (e) {
    if (e instanceof WorkbenchError) throw e;
    throw new WorkbenchError("UNREADABLE", `Cannot read the backup: ${e instanceof Error ? e.message : String(e)}.`);
  } finally {
    backup.close();
  }

  let previous: string | undefined;
  // This process's own read connection would hold the file open like a running Workbench.
  await closeReaders();
  removeDeadTemps(target);
  if (fs.existsSync(target)) {
    // Leaving WAL mode needs the only connection to the file: a running Workbench makes it fail.
    const live = new Database(target, { timeout: 0 });
    try {
      live.pragma("journal_mode = DELETE");
    } catch (e) {
      throw new WorkbenchError("CONFLICT", `The database ${target} is in use: stop the Workbench (workbench serve, the MCP server, any CLI run) and restore again. (${(e as Error).message})`);
    } finally {
      live.close();
    }
    // Named in the restore's answer as the copy to go back to: replaced whole or not at all.
    previous = `${target}.before-restore`;
    removeDeadTemps(previous);
    const copy = tempBeside(previous);
    try {
      fs.copyFileSync(target, copy);
      putInPlace(copy, previous);
    } finally {
      fs.rmSync(copy, { force: true });
    }
  }

  fs.mkdirSync(path.dirname(target), { recursive: true });
  const tmp = tempBeside(target);
  try {
    fs.copyFileSync(src, tmp);
    // Upgrade before the swap: if a migration fails, the current database is untouched.
    const migrated = await migrateSqlite(tmp);
    for (const side of SQLITE_SIDES) fs.rmSync(target + side, { force: true });
    putInPlace(tmp, target);
    return { engine: "sqlite", file: target, migrated, previous };
  } finally {
    for (const side of ["", ...SQLITE_SIDES]) fs.rmSync(tmp + side, { force: true });
  }
}

// ---- PostgreSQL

/** The client tools: on PATH, else Debian's versioned folder (the newest, which reads older servers). */
export function pgBinary(name: string): string {
  for (const dir of (readEnv("PATH") ?? "").split(path.delimiter)) {
    if (dir && fs.existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  const base = "/usr/lib/postgresql";
  const versions = fs.existsSync(base)
    ? fs
        .readdirSync(base)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const v of versions) {
    const p = path.join(base, v, "bin", name);
    if (fs.existsSync(p)) return p;
  }
  throw new WorkbenchError("NOT_FOUND", `${name} not found: install the PostgreSQL client tools (Debian: postgresql-client).`);
}

/** The URL without its password, which goes in PGPASSWORD so it never shows in the process list. */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (u.password) env.PGPASSWORD = decodeURIComponent(u.password);
  u.password = "";
  return { dbname: u.toString(), env };
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));

    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(out);
      else reject(new WorkbenchError("INTERNAL", `${path.basename(cmd)} failed: ${err.trim().split("\n").slice(0, 3).join(" ") || `exit ${code}`}`));
    });
  });
}

function pgTool(name: string, args: string[], url: string): Promise<string> {
  const { dbname, env } = connection(url);
  return run(pgBinary(name), [...args, `--dbname=${dbname}`], env);
}

/** The migration names inside a dump, read from its data without touching any database. */
async function pgDumpMigrations(file: string): Promise<string[]> {
  const list = await run(pgBinary("pg_restore"), ["--list", file], process.env);
  if (!new RegExp(`TABLE DATA \\S+ ${TABLE} `).test(list)) throw new WorkbenchError("INVALID_INPUT", `Not a Workbench database dump: it has no ${TABLE} table.`);
  const sql = await run(pgBinary("pg_restore"), ["--data-only", `--table=${TABLE}`, "--file=-", file], process.env);
  const copy = /^COPY [^\n]*_workbench_migrations[^\n]*FROM stdin;\n([\s\S]*?)^\\\.$/m.exec(sql);
  return (copy?.[1] ?? "")
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split("\t")[0]!);
}

async function restorePostgres(src: string, url: string, force: boolean): Promise<RestoreResult> {
  checkKnown(await pgDumpMigrations(src), "postgres");
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const res = await client.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'");
    const others = Number(res.rows[0]?.n ?? 0);
    if (others > 0 && !force) {
      throw new WorkbenchError("CONFLICT", `${plural(others, "other connection")} ${others === 1 ? "uses" : "use"} the database: stop every Workbench instance and restore again (--force restores anyway).`);
    }
  } finally {
    await client.end();
  }
  // The archive becomes a script first: a damaged archive then fails before the database is
  // touched (psql would commit a script cut short by a failing pipe).
  const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "wb-restore-")), "restore.sql");
  try {
    await run(pgBinary("pg_restore"), ["--no-owner", "--no-privileges", `--file=${script}`, src], process.env);
    // Empty the schema (tables a newer version added would otherwise survive and break the
    // migrations), then load, in one transaction.
    const { dbname, env } = connection(url);
    await run(pgBinary("psql"), ["-X", "-q", "-v", "ON_ERROR_STOP=1", "--single-transaction", "-c", "DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;", "-f", script, `--dbname=${dbname}`], env);
  } finally {
    fs.rmSync(path.dirname(script), { recursive: true, force: true });
  }
  const migrated = await migratePostgres(url);
  return { engine: "postgres", file: src, migrated };
}
