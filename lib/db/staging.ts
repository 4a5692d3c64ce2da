/**
 * A server index job's staging area. The job (lib/indexer/job-child.ts, in a process of its
 * own) reads and writes private copies of one project's stored rows: temporary tables on its
 * own connection, named like the stored tables, which an unqualified name reaches first on
 * both engines (SQLite looks in `temp` before `main`, PostgreSQL in `pg_temp` before the
 * search path). So the indexer's own SQL runs unchanged: its reads see what the job has
 * written so far, and nothing it writes takes the database's write lock or is seen by anyone
 * else. `apply` then writes the difference to the stored rows in one transaction, with the
 * job's final status in it. A job that is cancelled, fails or is killed leaves the project
 * exactly as it was: the copies end with the connection.
 *
 * The copies remember what they started with: the ids of tables an index only inserts into
 * and deletes from (a changed row is deleted and written again with a new id), the id and
 * content hash of search entries, and the whole rows of the few tables it updates in place.
 */
import type { Database as Sqlite, Statement } from "better-sqlite3";
import type { Client } from "pg";
import { databaseKind, postgresUrl, sqliteFileUrl } from "./database-url";
import { ensureMigrated } from "./migrate";
import { pgTypes, sqliteValue, toPg } from "./read-connection";
import { beginBulkFts } from "./repositories/search";
import { limitPageCache } from "./sqlite-cache";
import { pgTx, routedThrough, sqliteTx, type RoutedConnection, type SqlTx } from "./sql-tx";

interface StagedTable {
  table: string;
  /** The primary key's columns. */
  key: string[];
  /** What the copy remembers of its first rows: their key, their key and content hash, or all of each. */
  snapshot: "key" | "hash" | "row";
  /**
   * A row the server wrote meanwhile under a key the job also added is newer and stays (the
   * server's own syncs write search sources, e.g. a memory decision's, while a job runs).
   */
  keepServerRows?: boolean;
}

/** Every table an index job writes (lib/indexer/index-project.ts, lib/search/sync.ts). */
const STAGED: readonly StagedTable[] = [
  { table: "Project", key: ["id"], snapshot: "row" },
  { table: "SourceFile", key: ["id"], snapshot: "key" },
  { table: "IndexWarning", key: ["id"], snapshot: "key" },
  { table: "TopicSource", key: ["id"], snapshot: "key" },
  { table: "Topic", key: ["id"], snapshot: "key" },
  { table: "Document", key: ["id"], snapshot: "key" },
  { table: "GitBranch", key: ["id"], snapshot: "key" },
  { table: "GitCommit", key: ["id"], snapshot: "key" },
  { table: "DeepRun", key: ["id"], snapshot: "row" },
  { table: "SearchEntry", key: ["id"], snapshot: "hash" },
  { table: "SearchSource", key: ["projectId", "key"], snapshot: "row", keepServerRows: true },
  { table: "IndexFreshness", key: ["projectId"], snapshot: "row" },
];

/** The project columns an index writes; its name and remote may change while the job runs. */
const PROJECT_INDEX_COLUMNS = ["lastIndexedAt", "updatedAt", "configJson", "listingDigest", "gitFingerprint"];

/** Search entries from this many on are added to the full-text index in one statement (as in search.ts). */
const BULK_FTS_MIN = 1000;

const q = (name: string) => `"${name}"`;
const start = (table: string) => q(`_wb_start_${table}`);

/** One connection of the job, whichever the engine. */
interface Connection {
  readonly kind: "sqlite" | "postgres";
  /** How the stored tables and the copies are named on this connection. */
  readonly main: string;
  readonly temp: string;
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a statement; the number of rows it changed. */
  run(sql: string, params?: unknown[]): Promise<number>;
  /** The copy of one table: created, filled with the project's rows, indexed. */
  copy(table: string, where: string, projectId: string): Promise<void>;
  /** The columns of a table, in order. */
  columns(table: string): Promise<string[]>;
  begin(writesStored: boolean): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** Statements as a transaction's callback sees them (staged: on the copies). */
  tx(staged: boolean): SqlTx;
  close(): Promise<void>;
}

async function sqliteConnection(): Promise<Connection> {
  const { default: Database } = await import("better-sqlite3");
  // The swap may wait for a server write to end (SQLite's busy wait blocks this process only).
  const db: Sqlite = new Database(sqliteFileUrl().slice("file:".length), { timeout: 30_000 });
  db.pragma("foreign_keys = ON");
  limitPageCache(db);
  // The copies live in a file, not in this process's memory (a large project's documents are hundreds of MB).
  db.pragma("temp_store = FILE");
  const cache = new Map<string, Statement>();
  const stmt = (sql: string) => {
    let s = cache.get(sql);
    if (!s) cache.set(sql, (s = db.prepare(sql)));
    return s;
  };
  return {
    kind: "sqlite",
    main: "main.",
    temp: "temp.",
    all: async <T>(sql: string, params: unknown[] = []) => stmt(sql).all(params.map(sqliteValue)) as T[],
    run: async (sql, params = []) => stmt(sql).run(params.map(sqliteValue)).changes,
    async copy(table, where, projectId) {
      const info = db.prepare(`PRAGMA main.table_info(${q(table)})`).all() as { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }[];
      const pk = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
      // An INTEGER key stays the rowid, so the copy numbers new rows as the table does.
      const rowid = pk.length === 1 && /^integer$/i.test(pk[0]!.type);
      const defs = info.map((c) => `${q(c.name)} ${c.type}${rowid && c.pk ? " PRIMARY KEY" : ""}${c.notnull ? " NOT NULL" : ""}${c.dflt_value === null ? "" : ` DEFAULT ${c.dflt_value}`}`);
      if (!rowid) defs.push(`PRIMARY KEY (${pk.map((c) => q(c.name)).join(", ")})`);
      db.exec(`CREATE TEMP TABLE ${q(table)} (${defs.join(", ")})`);
      db.prepare(`INSERT INTO temp.${q(table)} SELECT * FROM main.${q(table)} WHERE ${where}`).run(projectId);
      const indexes = db.prepare(`SELECT "sql" FROM main.sqlite_master WHERE "type" = 'index' AND "tbl_name" = ? AND "sql" IS NOT NULL`).all(table) as { sql: string }[];
      for (const { sql } of indexes) db.exec(sql.replace(/^CREATE (UNIQUE )?INDEX "/, (_m, unique: string | undefined) => `CREATE ${unique ?? ""}INDEX temp."`));
    },
    columns: async (table) => (db.prepare(`PRAGMA main.table_info(${q(table)})`).all() as { name: string }[]).map((c) => c.name),
    // Writing only the copies takes no lock on the stored tables; the swap takes the write lock at once.
    begin: async (writesStored) => void db.exec(writesStored ? "BEGIN IMMEDIATE" : "BEGIN"),
    commit: async () => void db.exec("COMMIT"),
    rollback: async () => {
      if (db.inTransaction) db.exec("ROLLBACK");
    },
    tx: (staged) => sqliteTx(db, cache, staged),
    close: async () => void db.close(),
  };
}

async function pgConnection(): Promise<Connection> {
  const { default: pg } = await import("pg");
  const client: Client = new pg.Client({ connectionString: postgresUrl(), types: pgTypes(pg) });
  // A dropped connection ends the job (its copies are gone); an unhandled 'error' would end the process first.
  client.on("error", (e) => console.error("[workbench] index job connection:", e.message));
  await client.connect();
  const schema = (await client.query<{ s: string }>("SELECT current_schema() AS s")).rows[0]!.s;
  const main = `${q(schema)}.`;
  return {
    kind: "postgres",
    main,
    temp: "pg_temp.",
    all: async <T>(sql: string, params: unknown[] = []) => (await client.query(toPg(sql), params)).rows as T[],
    run: async (sql, params = []) => (await client.query(toPg(sql), params)).rowCount ?? 0,
    async copy(table, where, projectId) {
      await client.query(`CREATE TEMP TABLE ${q(table)} (LIKE ${main}${q(table)} INCLUDING DEFAULTS)`);
      await client.query(toPg(`INSERT INTO pg_temp.${q(table)} SELECT * FROM ${main}${q(table)} WHERE ${where}`), [projectId]);
      const indexes = await client.query<{ indexdef: string }>(`SELECT "indexdef" FROM pg_indexes WHERE "schemaname" = $1 AND "tablename" = $2`, [schema, table]);
      // The text-search indexes serve queries, which never reach the copies.
      for (const { indexdef } of indexes.rows) if (!/ USING gin /i.test(indexdef)) await client.query(indexdef.replace(/ ON \S+ USING /, ` ON pg_temp.${q(table)} USING `));
      // Temporary tables are never analyzed on their own; without statistics the planner guesses.
      await client.query(`ANALYZE pg_temp.${q(table)}`);
    },
    columns: async (table) =>
      (await client.query<{ column_name: string }>(`SELECT "column_name" FROM information_schema.columns WHERE "table_schema" = $1 AND "table_name" = $2 ORDER BY "ordinal_position"`, [schema, table])).rows.map(
        (r) => r.column_name,
      ),
    begin: async () => void (await client.query("BEGIN")),
    commit: async () => void (await client.query("COMMIT")),
    rollback: async () => void (await client.query("ROLLBACK")),
    tx: (staged) => pgTx(client, staged),
    close: () => client.end().catch(() => undefined),
  };
}

export interface StagingArea {
  /** Runs `fn` with every plain-SQL read and transaction of its async context on the copies. */
  run<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Writes what changed in the copies to the stored rows, in one transaction that `finish`
   * joins (the job's final status). When `finish` answers false (the job was cancelled
   * meanwhile) nothing is written.
   */
  apply(finish: (tx: SqlTx) => Promise<boolean>): Promise<{ applied: boolean; rows: number; ms: number }>;
  close(): Promise<void>;
}

/** Copies the project's stored rows into a new staging area. */
export async function openStagingArea(projectId: string): Promise<StagingArea> {
  await ensureMigrated();
  const conn = databaseKind() === "postgres" ? await pgConnection() : await sqliteConnection();
  try {
    // One transaction, so the copies are of one moment.
    await conn.begin(false);
    for (const t of STAGED) {
      await conn.copy(t.table, t.table === "Project" ? `"id" = ?` : `"projectId" = ?`, projectId);
      const kept = t.snapshot === "row" ? "*" : t.snapshot === "hash" ? `${t.key.map(q).join(", ")}, "hash"` : t.key.map(q).join(", ");
      await conn.run(`CREATE TEMP TABLE ${start(t.table)} AS SELECT ${kept} FROM ${conn.temp}${q(t.table)}`);
    }
    await conn.commit();
  } catch (e) {
    await conn.rollback().catch(() => undefined);
    await conn.close();
    throw e;
  }

  // One transaction at a time on the one connection (a second BEGIN inside the first would fail).
  let turn: Promise<unknown> = Promise.resolve();
  const routed: RoutedConnection = {
    kind: conn.kind,
    all: (sql, params) => conn.all(sql, params),
    transaction<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T> {
      const mine = turn.then(async () => {
        await conn.begin(false);
        try {
          const out = await fn(conn.tx(true));
          await conn.commit();
          return out;
        } catch (e) {
          await conn.rollback().catch(() => undefined);
          throw e;
        }
      });
      turn = mine.catch(() => undefined);
      return mine;
    },
  };

  return {
    run: (fn) => routedThrough(routed, fn),
    async apply(finish) {
      await turn;
      const t0 = performance.now();
      await conn.begin(true);
      try {
        const tx = conn.tx(false);
        if (!(await finish(tx))) {
          await conn.rollback();
          return { applied: false, rows: 0, ms: performance.now() - t0 };
        }
        const rows = await swap(conn, tx, projectId);
        await conn.commit();
        return { applied: true, rows, ms: performance.now() - t0 };
      } catch (e) {
        await conn.rollback().catch(() => undefined);
        throw e;
      }
    },
    close: () => conn.close(),
  };
}

/** The stored rows made equal to the copies: rows gone or changed are deleted, rows new or changed are written. */
async function swap(conn: Connection, tx: SqlTx, projectId: string): Promise<number> {
  const { main: M, temp: S } = conn;
  let rows = 0;
  for (const t of STAGED) {
    const table = q(t.table);
    if (t.table === "Project") {
      rows += await updateProject(conn, projectId);
      continue;
    }
    const key = t.key.map(q).join(", ");
    const keyed = t.key.length > 1 ? `(${key})` : key;
    const kept = t.snapshot === "row" ? "*" : t.snapshot === "hash" ? `${key}, "hash"` : key;
    rows += await conn.run(`DELETE FROM ${M}${table} WHERE ${keyed} IN (SELECT ${key} FROM (SELECT ${kept} FROM ${S}${start(t.table)} EXCEPT SELECT ${kept} FROM ${S}${table}) AS gone)`);
    const fresh = `SELECT ${key} FROM (SELECT ${kept} FROM ${S}${table} EXCEPT SELECT ${kept} FROM ${S}${start(t.table)}) AS fresh`;
    if (t.table === "SearchEntry") {
      rows += await insertEntries(conn, tx, fresh);
      continue;
    }
    const columns = (await conn.columns(t.table)).map(q).join(", ");
    const keep = t.keepServerRows ? ` ON CONFLICT (${key}) DO NOTHING` : "";
    rows += await conn.run(`INSERT INTO ${M}${table} (${columns}) SELECT ${columns} FROM ${S}${table} WHERE ${keyed} IN (${fresh})${keep}`);
  }
  return rows;
}

/**
 * New search entries take new ids from the stored table (the copy numbered its own). One the
 * server wrote meanwhile under the same kind and ref (a packet saved during the job) is newer
 * and stays. On SQLite many new entries are added to the full-text index in one statement.
 */
async function insertEntries(conn: Connection, tx: SqlTx, fresh: string): Promise<number> {
  const { main: M, temp: S } = conn;
  const columns = (await conn.columns("SearchEntry"))
    .filter((c) => c !== "id")
    .map(q)
    .join(", ");
  const [{ n }] = (await conn.all<{ n: unknown }>(`SELECT count(*) AS "n" FROM (${fresh}) AS f`)) as [{ n: unknown }];
  const bulk = conn.kind === "sqlite" && Number(n) >= BULK_FTS_MIN ? await beginBulkFts(tx, "main") : null;
  const written = await conn.run(`INSERT INTO ${M}"SearchEntry" (${columns}) SELECT ${columns} FROM ${S}"SearchEntry" WHERE "id" IN (${fresh}) ON CONFLICT ("projectId", "kind", "ref") DO NOTHING`);
  await bulk?.finish();
  return written;
}

/** The project row's index columns, when the job changed them. */
async function updateProject(conn: Connection, projectId: string): Promise<number> {
  const { main: M, temp: S } = conn;
  const cols = PROJECT_INDEX_COLUMNS.map(q).join(", ");
  const [{ n }] = (await conn.all<{ n: unknown }>(`SELECT count(*) AS "n" FROM (SELECT ${cols} FROM ${S}"Project" EXCEPT SELECT ${cols} FROM ${S}${start("Project")}) AS changed`)) as [{ n: unknown }];
  if (Number(n) === 0) return 0;
  const set = PROJECT_INDEX_COLUMNS.map((c) => `${q(c)} = s.${q(c)}`).join(", ");
  return conn.run(`UPDATE ${M}"Project" AS p SET ${set} FROM ${S}"Project" AS s WHERE p."id" = s."id" AND p."id" = ?`, [projectId]);
}
