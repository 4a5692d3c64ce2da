import { AsyncLocalStorage } from "node:async_hooks";
import { readPlainFlag } from "../core/env-plain";

/**
 * Counts the SQL statements the Workbench sends to its database, for benchmarks and tests
 * ("queries per page"). Off unless WORKBENCH_QUERY_STATS=1 when the client is created:
 * Prisma's query events cost a little on every statement, so production leaves them off.
 *
 * Two views of the same count: a process-wide total (the load benchmark reads it between
 * sequential requests through /api/query-stats), and a total per `countQueries` call, scoped
 * with AsyncLocalStorage so concurrent work elsewhere in the process is not counted.
 */
export function queryStatsEnabled(): boolean {
  return readPlainFlag("WORKBENCH_QUERY_STATS") === "1";
}

const g = globalThis as unknown as { __workbenchQueryStats?: { total: number; listening: boolean } };
const stats = (g.__workbenchQueryStats ??= { total: 0, listening: false });
const scope = new AsyncLocalStorage<{ n: number; statements: string[] }>();

/** One statement sent: called from the Prisma client's query event and by the plain-SQL path. */
export function noteQuery(sql?: string): void {
  stats.total++;
  const s = scope.getStore();
  if (s) {
    s.n++;
    if (sql !== undefined) s.statements.push(sql);
  }
}

/** The client was created with query events on (lib/db/client.ts sets this). */
export function markQueryStatsListening(): void {
  stats.listening = true;
}

/** Statements sent by this process since it started (0 when counting is off). */
export function queryTotal(): number {
  return stats.total;
}

/**
 * Runs `fn` and counts the statements it sends, including those of anything it awaits, with
 * the text of each where the sender knows it (every path but search-sqlite's own).
 * Throws when counting is off, so a test can never pass on a count of zero by accident.
 */
export async function countQueries<T>(fn: () => Promise<T>): Promise<{ result: T; queries: number; statements: string[] }> {
  const s = { n: 0, statements: [] as string[] };
  const result = await scope.run(s, fn);
  if (!stats.listening) throw new Error("Query counting is off: set WORKBENCH_QUERY_STATS=1 before the database is first opened.");
  return { result, queries: s.n, statements: s.statements };
}
