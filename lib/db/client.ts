import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client.ts";
import { databaseKind, postgresUrl, sqliteFileUrl } from "./database-url";
import { migratePostgres, migrateSqlite } from "./migrate";

/**
 * The client type the repositories are written against. Both generated clients come
 * from the same models (a test keeps the schemas in sync), so the PostgreSQL client
 * has the same API and is used through this type.
 */
export type Db = SqliteClient;

const g = globalThis as unknown as { __workbenchDb?: Promise<Db> };

async function connect(): Promise<Db> {
  if (databaseKind() === "postgres") {
    const url = postgresUrl();
    await migratePostgres(url);
    const { PrismaPg } = await import("@prisma/adapter-pg");
    const { PrismaClient: PgClient } = await import("./generated/postgres/client.ts");
    return new PgClient({ adapter: new PrismaPg({ connectionString: url }) }) as unknown as Db;
  }
  const url = sqliteFileUrl();
  await migrateSqlite(url.slice("file:".length));
  return new SqliteClient({ adapter: new PrismaBetterSQLite3({ url, timeout: 10_000 }) });
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
  if (p) await (await p).$disconnect();
}
