import type { PrismaClient as SqliteClient } from "./generated/sqlite/client.ts";
import { databaseKind, postgresUrl, sqliteFileUrl } from "./database-url";
import { ensureMigrated } from "./migrate";
import { markQueryStatsListening, noteQuery, queryStatsEnabled } from "./query-stats";
import { closeReaders } from "./read-connection";

/**
 * The client type the repositories are written against. Both generated clients come
 * from the same models (a test keeps the schemas in sync), so the PostgreSQL client
 * has the same API and is used through this type.
 */
export type Db = SqliteClient;

const g = globalThis as unknown as { __workbenchDb?: Promise<Db> };

/** Query events only when counting (lib/db/query-stats.ts): they cost a little per statement. */
const queryLog = () => ({ log: queryStatsEnabled() ? [{ emit: "event" as const, level: "query" as const }] : [] });

function counted(db: Db): Db {
  if (!queryStatsEnabled()) return db;
  (db as unknown as { $on(e: "query", cb: (e: { query: string }) => void): void }).$on("query", (e) => noteQuery(e.query));
  markQueryStatsListening();
  return db;
}

async function connect(): Promise<Db> {
  if (databaseKind() === "postgres") {
    const url = postgresUrl();
    await ensureMigrated();
    const { PrismaPg } = await import("@prisma/adapter-pg");
    const { PrismaClient: PgClient } = await import("./generated/postgres/client.ts");
    return counted(new PgClient({ adapter: new PrismaPg({ connectionString: url }), ...queryLog() }) as unknown as Db);
  }
  const url = sqliteFileUrl();
  await ensureMigrated();
  // Loaded when first connecting, not with every module that can reach the database: the
  // client's runtime is most of a CLI start that turns out to need only plain SQL.
  const { PrismaBetterSQLite3 } = await import("@prisma/adapter-better-sqlite3");
  const { PrismaClient: SqliteClient } = await import("./generated/sqlite/client.ts");
  return counted(new SqliteClient({ adapter: new PrismaBetterSQLite3({ url, timeout: 10_000 }), ...queryLog() }) as unknown as Db);
}

/** The process-wide client, migrated on first use. */
export function getDb(): Promise<Db> {
  if (!g.__workbenchDb) {
    g.__workbenchDb = connect().catch((e) => {
      g.__workbenchDb = undefined;
      throw e;
    });
  }
  return g.__workbenchDb;
}

export async function closeDb(): Promise<void> {
  const p = g.__workbenchDb;
  g.__workbenchDb = undefined;
  await closeReaders();
  if (p) await (await p).$disconnect();
}
