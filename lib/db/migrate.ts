import fs from "node:fs";
import path from "node:path";
import { appRoot } from "./app-root";
import { databaseKind, postgresUrl, sqliteFileUrl, type DatabaseKind } from "./database-url";

/**
 * Applies the committed migration SQL (written by `prisma migrate diff`, see
 * scripts/new-migration.ts) in order, once each. Done in-process rather than through
 * `prisma migrate deploy` so start-up needs no CLI run, and so PostgreSQL works without
 * the adapter workarounds the CLI needs here; several instances serialise on a lock.
 */
export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/** The migrations' names in order (folder names only: a start that finds them applied reads no SQL). */
export function migrationNames(kind: DatabaseKind): string[] {
  const dir = migrationsDir(kind);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** One migration's SQL and checksum (node:crypto is loaded here, only when one is to be applied). */
export async function readMigration(kind: DatabaseKind, name: string): Promise<Migration> {
  const { createHash } = await import("node:crypto");
  const sql = fs.readFileSync(path.join(migrationsDir(kind), name, "migration.sql"), "utf8");
  return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
}

export async function listMigrations(kind: DatabaseKind): Promise<Migration[]> {
  return Promise.all(migrationNames(kind).map((name) => readMigration(kind, name)));
}

function migrationsDir(kind: DatabaseKind): string {
  return path.join(appRoot(), "prisma", kind, "migrations");
}

const TABLE = "_workbench_migrations";

export async function migrateSqlite(file: string): Promise<string[]> {
  const { default: Database } = await import("better-sqlite3");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file, { timeout: 10_000 });
  try {
    db.pragma("journal_mode = WAL");
    db.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (name TEXT PRIMARY KEY, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)`);
    const applied = new Set((db.prepare(`SELECT name FROM ${TABLE}`).all() as { name: string }[]).map((r) => r.name));
    const done: string[] = [];
    for (const name of migrationNames("sqlite")) {
      if (applied.has(name)) continue;
      const m = await readMigration("sqlite", name);
      db.transaction(() => {
        db.exec(m.sql);
        db.prepare(`INSERT INTO ${TABLE} (name, checksum, applied_at) VALUES (?, ?, ?)`).run(m.name, m.checksum, new Date().toISOString());
      }).immediate();
      done.push(m.name);
    }
    return done;
  } finally {
    db.close();
  }
}

export async function migratePostgres(url: string): Promise<string[]> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // One instance migrates at a time; the others wait and then find nothing to do.
    await client.query("SELECT pg_advisory_lock(727274)");
    await client.query(`CREATE TABLE IF NOT EXISTS ${TABLE} (name TEXT PRIMARY KEY, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)`);
    const res = await client.query<{ name: string }>(`SELECT name FROM ${TABLE}`);
    const applied = new Set(res.rows.map((r) => r.name));
    const done: string[] = [];
    for (const name of migrationNames("postgres")) {
      if (applied.has(name)) continue;
      const m = await readMigration("postgres", name);
      await client.query("BEGIN");
      try {
        await client.query(m.sql);
        await client.query(`INSERT INTO ${TABLE} (name, checksum, applied_at) VALUES ($1, $2, $3)`, [m.name, m.checksum, new Date().toISOString()]);
        await client.query("COMMIT");
      } catch (e) {
        await client.query("ROLLBACK");
        throw e;
      }
      done.push(m.name);
    }
    return done;
  } finally {
    await client.query("SELECT pg_advisory_unlock(727274)").catch(() => undefined);
    await client.end();
  }
}

// Kept on globalThis: Next bundles this module into several route chunks.
const g = globalThis as unknown as { __workbenchMigrated?: Map<string, Promise<unknown>> };
const migrated = (g.__workbenchMigrated ??= new Map());

/**
 * The configured database, migrated once per process before its first use by any path: the
 * Prisma client, the plain SQL reads and the indexer's transactions. A command that only reads
 * and writes plain SQL (the CLI's load-context on an unchanged project) never loads Prisma.
 */
export function ensureMigrated(): Promise<unknown> {
  const postgres = databaseKind() === "postgres";
  const target = postgres ? postgresUrl() : sqliteFileUrl().slice("file:".length);
  let done = migrated.get(target);
  if (!done) {
    done = (postgres ? migratePostgres(target) : migrateSqlite(target)).catch((e: unknown) => {
      migrated.delete(target);
      throw e;
    });
    migrated.set(target, done);
  }
  return done;
}

/**
 * Notes that `target` has every migration, found on a connection opened anyway (the SQLite
 * reader asks its own connection, so a start that only reads opens the file once).
 */
export function noteMigrated(target: string): void {
  if (!migrated.has(target)) migrated.set(target, Promise.resolve([]));
}

/** Whether ensureMigrated already ran (or was noted) for `target` in this process. */
export function migratedHere(target: string): boolean {
  return migrated.has(target);
}

/** Forgets what was migrated (the database was closed, replaced or deleted). */
export function forgetMigrated(): void {
  migrated.clear();
}
