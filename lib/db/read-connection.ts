import type { Database as Sqlite, Statement } from "better-sqlite3";
import type { Pool, PoolClient } from "pg";
import { limitPageCache } from "./sqlite-cache";
import { databaseKind, postgresUrl, sqliteFileUrl } from "./database-url";
import { ensureMigrated, forgetMigrated, migratedHere, migrationNames, noteMigrated } from "./migrate";

/**
 * Long-lived connections for plain SQL reads, one per process (kept on globalThis, since
 * Next bundles this module into several route chunks).
 *
 * Why not Prisma for the hot reads: Prisma 6.19's JS engine compiles every query to a plan in
 * WebAssembly on the main thread, with no plan cache (that came in Prisma 7.4, which cannot run
 * here): about 2 ms per query on the project's machines, against 0.01–0.6 ms for the same SQL
 * through a prepared statement. Pages under load make 3 to 5 reads each. And why not a
 * connection per read: opening one costs more than most reads (a whole search rebuild reads
 * about a hundred pages of documents).
 *
 * SQLite: one read-only connection; in WAL mode each statement sees what was committed when
 * it started, and prepared statements are kept (bounded). PostgreSQL: a small pool that does
 * not keep the process alive.
 */
interface Readers {
  sqlite?: { file: string; db: Sqlite; statements: Map<string, Statement> };
  pgOpening?: { url: string; ready: Promise<Pool> };
  sqliteOpening?: { file: string; ready: Promise<{ file: string; db: Sqlite; statements: Map<string, Statement> }> };
  pg?: { url: string; pool: Pool };
}

const g = globalThis as unknown as { __workbenchReaders?: Readers };
const readers = (g.__workbenchReaders ??= {});

/** PostgreSQL's `timestamp without time zone`. */
const TIMESTAMP_OID = 1114;

/** Prepared statements kept per connection; the texts are few, but IN lists vary in length. */
const MAX_STATEMENTS = 256;

export function toPg(sql: string): string {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
}

export function sqliteValue(v: unknown): unknown {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof Date) return v.toISOString();
  return v ?? null;
}

async function sqliteReader(): Promise<NonNullable<Readers["sqlite"]>> {
  const file = sqliteFileUrl().slice("file:".length);
  if (readers.sqlite?.file === file && readers.sqlite.db.open) return readers.sqlite;
  // Reads that start together share one opening: each opening its own would leave all but one unclosed.
  if (readers.sqliteOpening?.file === file) return readers.sqliteOpening.ready;
  readers.sqlite?.db.close();
  readers.sqlite = undefined;
  const ready = (async () => {
    const { default: Database } = await import("better-sqlite3");
    const open = () => {
      const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 15_000 });
      limitPageCache(db);
      return db;
    };
    if (!migratedHere(file)) {
      // A database with every migration is found so on this connection, without a second one.
      let db: Sqlite | null = null;
      try {
        db = open();
      } catch {
        // No database file yet: ensureMigrated creates it.
      }
      if (db && hasEveryMigration(db)) {
        noteMigrated(file);
        return { file, db, statements: new Map<string, Statement>() };
      }
      db?.close();
      await ensureMigrated();
    }
    return { file, db: open(), statements: new Map<string, Statement>() };
  })();
  readers.sqliteOpening = { file, ready };
  try {
    readers.sqlite = await ready;
    return readers.sqlite;
  } finally {
    if (readers.sqliteOpening?.ready === ready) readers.sqliteOpening = undefined;
  }
}

function hasEveryMigration(db: Sqlite): boolean {
  try {
    const applied = new Set((db.prepare(`SELECT name FROM _workbench_migrations`).all() as { name: string }[]).map((r) => r.name));
    return migrationNames("sqlite").every((n) => applied.has(n));
  } catch {
    // No migrations table yet: a new database.
    return false;
  }
}

async function pgPool(): Promise<Pool> {
  const url = postgresUrl();
  if (readers.pg?.url === url) return readers.pg.pool;
  if (readers.pgOpening?.url === url) return readers.pgOpening.ready;
  const ready = newPgPool(url);
  readers.pgOpening = { url, ready };
  try {
    return await ready;
  } finally {
    if (readers.pgOpening?.ready === ready) readers.pgOpening = undefined;
  }
}

async function newPgPool(url: string): Promise<Pool> {
  const old = readers.pg?.pool;
  readers.pg = undefined;
  if (old) await old.end().catch(() => undefined);
  await ensureMigrated();
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({
    connectionString: url,
    // Reads and the plain SQL write transactions share it (a transaction holds its client throughout).
    max: 8,
    idleTimeoutMillis: 10_000,
    allowExitOnIdle: true,
    types: pgTypes(pg),
  });
  // An idle client that loses its server must not take the process down; the next read reconnects.
  pool.on("error", (e) => console.error("[workbench] read pool:", e.message));
  readers.pg = { url, pool };
  return pool;
}

/** Prisma stores DateTime as TIMESTAMP(3) in UTC without a zone; pg would read it as local time. */
export function pgTypes(pg: { types: { getTypeParser: (oid: number, format: "text") => (v: string) => unknown } }): { getTypeParser: (oid: number, format?: string) => (v: string) => unknown } {
  return { getTypeParser: (oid, format) => (oid === TIMESTAMP_OID ? (v: string) => new Date(`${v.replace(" ", "T")}Z`) : pg.types.getTypeParser(oid, format as "text")) };
}

/** Rows of one read-only statement (`?` placeholders, quoted Prisma column names). */
export async function readRows<T>(sql: string, params: unknown[]): Promise<T[]> {
  if (databaseKind() === "postgres") {
    const pool = await pgPool();
    return (await pool.query(toPg(sql), params)).rows as T[];
  }
  const r = await sqliteReader();
  let stmt = r.statements.get(sql);
  if (!stmt) {
    if (r.statements.size >= MAX_STATEMENTS) r.statements.clear();
    stmt = r.db.prepare(sql);
    r.statements.set(sql, stmt);
  }
  return stmt.all(params.map(sqliteValue)) as T[];
}

/**
 * A client of the same pool for a write transaction (lib/db/sql-tx.ts): connecting anew for
 * each one cost more than most of the writes it carried. Release it when done.
 */
export async function pgPooledClient(): Promise<PoolClient> {
  return (await pgPool()).connect();
}

/** Closes the read connections (shutdown, tests, and before a restore swaps the file). */
export async function closeReaders(): Promise<void> {
  const { sqlite, pg } = readers;
  readers.sqlite = undefined;
  readers.pg = undefined;
  forgetMigrated();
  sqlite?.db.close();
  if (pg) await pg.pool.end().catch(() => undefined);
}
