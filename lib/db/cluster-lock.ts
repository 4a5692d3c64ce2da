import { databaseKind, postgresUrl } from "./database-url";

/**
 * A named lock shared by every instance on the same database, so work such as indexing a
 * project runs once per cluster. On PostgreSQL it is a session advisory lock held on its
 * own connection: if the instance dies, PostgreSQL drops the connection and the lock with
 * it, so a crash never leaves a project locked. SQLite serves one instance, so a lock in
 * this process is enough there.
 */
export interface ClusterLock {
  release(): Promise<void>;
}

/** Keeps these locks apart from the migration lock (a single-key advisory lock). */
const NAMESPACE = 727275;

const local = new Set<string>();

/** Takes the lock if nobody holds it (this process included); null otherwise. Never waits. */
export async function tryClusterLock(name: string): Promise<ClusterLock | null> {
  if (databaseKind() !== "postgres") {
    if (local.has(name)) return null;
    local.add(name);
    return { release: async () => void local.delete(name) };
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: postgresUrl() });
  // A dropped connection has already released the lock; an unhandled 'error' would end the process.
  client.on("error", (e) => console.error("[workbench] cluster lock connection:", e.message));
  await client.connect();
  try {
    const res = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok", [NAMESPACE, name]);
    if (res.rows[0]?.ok) {
      let released: Promise<void> | null = null;
      return { release: () => (released ??= client.end().catch(() => undefined)) };
    }
  } catch (e) {
    await client.end().catch(() => undefined);
    throw e;
  }
  await client.end().catch(() => undefined);
  return null;
}
