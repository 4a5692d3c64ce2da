import { AsyncLocalStorage } from "node:async_hooks";
import type { Database as Sqlite, Statement } from "better-sqlite3";
import type { ClientBase } from "pg";
import { databaseKind, sqliteFileUrl } from "./database-url";
import { ensureMigrated } from "./migrate";
import { noteQuery } from "./query-stats";
import { limitPageCache } from "./sqlite-cache";
import { queueWrite } from "./write-gate";
import { pgPooledClient, readRows, sqliteValue, toPg } from "./read-connection";

/**
 * A plain SQL transaction on the Workbench database, for the indexer's bulk writes.
 * Prisma's createMany spends most of a large index in query building (measured: about
 * 13 s of a 28 s full index of 10,000 sessions and documents); plain prepared statements
 * do the same writes in about a second. Statements are written with `?` placeholders and
 * quoted Prisma column names, so one text serves SQLite and PostgreSQL.
 */
export interface SqlTx {
  readonly kind: "sqlite" | "postgres";
  run(sql: string, params?: unknown[]): Promise<void>;
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * Multi-row INSERT of `items`, each turned into its row (values in `columns` order) only when
   * it is written, batched under the engine's bind limit. Building every row first kept tens of
   * thousands of short-lived arrays (and each topic's details JSON) alive long enough to be
   * promoted to the old generation: a full index's saving phase was most of its heap growth.
   */
  insert<T>(table: string, columns: string[], items: Iterable<T>, row: (item: T) => unknown[]): Promise<void>;
  /**
   * Set when the transaction writes a server index job's staging area (lib/db/staging.ts):
   * the tables it names are the job's private copies, and what serves the stored ones (the
   * full-text indexes and their triggers) must be left alone.
   */
  readonly staged?: boolean;
}

/**
 * A connection that serves every readSql and withSqlTransaction of one async context: a
 * server index job's staging area (lib/db/staging.ts), whose reads must see what the job has
 * written so far and whose writes must not reach the stored rows until the job is applied.
 */
export interface RoutedConnection {
  readonly kind: "sqlite" | "postgres";
  all<T>(sql: string, params: unknown[]): Promise<T[]>;
  transaction<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T>;
}

// On globalThis, like the write gate: Next bundles this module into several chunks of one process.
const g = globalThis as unknown as { __workbenchRoute?: AsyncLocalStorage<RoutedConnection> };
const route = (g.__workbenchRoute ??= new AsyncLocalStorage<RoutedConnection>());

/** Runs `fn` with its plain-SQL reads and transactions on `connection`. */
export function routedThrough<T>(connection: RoutedConnection, fn: () => Promise<T>): Promise<T> {
  return route.run(connection, fn);
}

const PG_MAX_VARS = 60_000;

/** Runs `fn` in one transaction: everything or nothing is written. */
export async function withSqlTransaction<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T> {
  const routed = route.getStore();
  if (routed) return routed.transaction(fn);
  await ensureMigrated();
  if (databaseKind() === "postgres") {
    const client = await pgPooledClient();
    const tx = pgTx(client);
    // A client whose ROLLBACK failed may be broken: it is destroyed rather than returned to the pool.
    let broken: Error | undefined;
    try {
      await client.query("BEGIN");
      const out = await fn(tx);
      await client.query("COMMIT");
      return out;
    } catch (e) {
      await client.query("ROLLBACK").catch((rollback: unknown) => {
        broken = rollback instanceof Error ? rollback : new Error(String(rollback));
      });
      throw e;
    } finally {
      client.release(broken);
    }
  }
  // One writer at a time in this process: better-sqlite3 would wait for the lock synchronously.
  return queueWrite("a plain-SQL write transaction", () => sqliteTransaction(fn));
}

/** Statements on one PostgreSQL client, as a transaction's callback sees them (the caller begins and ends it). */
export function pgTx(client: ClientBase, staged = false): SqlTx {
  return {
    kind: "postgres",
    staged,
    async run(sql, params = []) {
      noteQuery(sql);
      await client.query(toPg(sql), params);
    },
    async all<T>(sql: string, params: unknown[] = []) {
      noteQuery(sql);
      return (await client.query(toPg(sql), params)).rows as T[];
    },
    async insert(table, columns, items, row) {
      const per = Math.max(1, Math.floor(PG_MAX_VARS / columns.length));
      const one = `(${columns.map(() => "?").join(",")})`;
      const write = async (params: unknown[], n: number) => {
        noteQuery(`INSERT INTO "${table}"`);
        await client.query(toPg(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(",")}) VALUES ${Array.from({ length: n }, () => one).join(",")}`), params);
      };
      let params: unknown[] = [];
      let n = 0;
      for (const item of items) {
        params.push(...row(item));
        if (++n === per) {
          await write(params, n);
          params = [];
          n = 0;
        }
      }
      if (n > 0) await write(params, n);
    },
  };
}

async function sqliteTransaction<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T> {
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(sqliteFileUrl().slice("file:".length), { timeout: 15_000 });
  db.pragma("foreign_keys = ON");
  limitPageCache(db);
  const tx = sqliteTx(db, new Map());
  try {
    db.exec("BEGIN IMMEDIATE");
    const out = await fn(tx);
    db.exec("COMMIT");
    return out;
  } catch (e) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw e;
  } finally {
    db.close();
  }
}

/** Statements on one SQLite connection (prepared once each, in `cache`), as a transaction's callback sees them. */
export function sqliteTx(db: Sqlite, cache: Map<string, Statement>, staged = false): SqlTx {
  const stmt = (sql: string) => {
    let s = cache.get(sql);
    if (!s) cache.set(sql, (s = db.prepare(sql)));
    return s;
  };
  return {
    kind: "sqlite",
    staged,
    async run(sql, params = []) {
      noteQuery(sql);
      stmt(sql).run(params.map(sqliteValue));
    },
    async all<T>(sql: string, params: unknown[] = []) {
      noteQuery(sql);
      return stmt(sql).all(params.map(sqliteValue)) as T[];
    },
    async insert(table, columns, items, row) {
      // One prepared single-row statement, reused: the fastest path in better-sqlite3.
      const one = stmt(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(",")}) VALUES (${columns.map(() => "?").join(",")})`);
      for (const item of items) {
        noteQuery(one.source);
        one.run(row(item).map(sqliteValue));
      }
    },
  };
}

/** What a Prisma interactive transaction offers for plain SQL. */
export interface PrismaRawTx {
  $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<number>;
  $queryRawUnsafe<T = unknown>(sql: string, ...values: unknown[]): Promise<T>;
}

/**
 * Plain SQL inside a Prisma interactive transaction: for the few rows derived from a Prisma
 * write (a packet's search entry) that must be committed with it, not after it, so a process
 * killed between the two cannot leave one without the other.
 */
export function prismaSqlTx(tx: PrismaRawTx): SqlTx {
  const kind = databaseKind();
  const text = (sql: string) => (kind === "postgres" ? toPg(sql) : sql);
  const values = (params: unknown[]) => (kind === "postgres" ? params : params.map(sqliteValue));
  return {
    kind,
    async run(sql, params = []) {
      noteQuery(sql);
      await tx.$executeRawUnsafe(text(sql), ...values(params));
    },
    async all<T>(sql: string, params: unknown[] = []) {
      noteQuery(sql);
      return tx.$queryRawUnsafe<T[]>(text(sql), ...values(params));
    },
    async insert(table, columns, items, row) {
      const one = text(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(",")}) VALUES (${columns.map(() => "?").join(",")})`);
      for (const item of items) {
        noteQuery(one);
        await tx.$executeRawUnsafe(one, ...values(row(item)));
      }
    },
  };
}

/**
 * One plain SQL read outside any transaction, on the process's read connection
 * (lib/db/read-connection.ts): for reads of tens of thousands of rows, where Prisma turns every
 * value of every row into its own objects first (23,500 file fingerprints took about 200 ms
 * through Prisma and take about 20 ms here), and for the reads behind pages under load.
 */
export async function readSql<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  noteQuery(sql);
  const routed = route.getStore();
  return routed ? routed.all<T>(sql, params) : readRows<T>(sql, params);
}
