import type { PrismaClient as SqliteClient } from "./generated/sqlite/client.ts";
import { databaseKind, postgresUrl, sqliteFileUrl } from "./database-url";
import { ensureMigrated } from "./migrate";
import { markQueryStatsListening, noteQuery, queryStatsEnabled } from "./query-stats";
import { closeReaders } from "./read-connection";
import { inPrismaTransaction, queueWrite } from "./write-gate";

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

/** Prisma operations that write: they take the process's SQLite write gate (lib/db/write-gate.ts). */
const WRITES = new Set(["create", "createMany", "createManyAndReturn", "update", "updateMany", "updateManyAndReturn", "upsert", "delete", "deleteMany", "$executeRaw", "$executeRawUnsafe"]);

/**
 * The SQLite client with its writes and transactions behind the write gate. Reads pass
 * straight through: they never wait for a lock in WAL mode. (The wrapped client has no `$on`:
 * query counting subscribes on the base client first.)
 */
function gated(db: Db): Db {
  const extended = db.$extends({
    query: {
      async $allOperations({ model, operation, args, query }) {
        return WRITES.has(operation) && !inPrismaTransaction() ? queueWrite(`Prisma ${model ?? ""}.${operation}`, () => query(args)) : query(args);
      },
    },
  });
  return queuedTransactions(extended as unknown as Db);
}

/** `$transaction` takes a turn for its whole callback; a client made by `$extends` keeps that. */
function queuedTransactions(client: Db): Db {
  return new Proxy(client, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop);
      if (typeof value !== "function") return value;
      const method = value as (...a: unknown[]) => unknown;
      if (prop === "$transaction") {
        return (...args: unknown[]) => {
          // Prisma transactions do not nest; inside one, a second would wait for the first forever.
          if (inPrismaTransaction()) return Promise.reject(new Error("A Prisma transaction was started inside another one's callback; use its `tx` instead."));
          return queueWrite("a Prisma transaction", () => method.apply(target, args) as Promise<unknown>, { prismaTransaction: true });
        };
      }
      if (prop === "$extends") return (...args: unknown[]) => queuedTransactions(method.apply(target, args) as Db);
      return method.bind(target);
    },
  });
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
  return gated(counted(new SqliteClient({ adapter: new PrismaBetterSQLite3({ url, timeout: 10_000 }), ...queryLog() }) as unknown as Db));
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
