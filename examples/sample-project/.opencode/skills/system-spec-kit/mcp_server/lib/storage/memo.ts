import type Database from 'better-sqlite3';

/**
 * Memoised derivations of spec documents, invalidated through their dependency edges: when a
 * file changes, every memo that (transitively) read it is dropped.
 */
export interface MemoEntry {
  key: string;
  filePath: string;
  value: string;
  computedAt: string;
}

let db: Database.Database | null = null;

function database(): Database.Database {
  if (!db) throw new Error('memo store used before initMemoStore()');
  return db;
}

export function initMemoStore(database: Database.Database): void {
  db = database;
  ensureSchema(database);
}

function ensureSchema(database: Database.Database): void {
  // One call for the whole DDL: better-sqlite3 runs every statement of the string.
  database.exec(`
    CREATE TABLE IF NOT EXISTS memo_entries (
      key TEXT PRIMARY KEY,
      file_path TEXT NOT NULL,
      value TEXT NOT NULL,
      computed_at TEXT NOT NULL DEFAULT (datetime('now'))
    );
    CREATE TABLE IF NOT EXISTS dependency_edges (
      parent_path TEXT NOT NULL,
      child_path TEXT NOT NULL,
      PRIMARY KEY (parent_path, child_path)
    );
    CREATE INDEX IF NOT EXISTS idx_dependency_edges_child ON dependency_edges(child_path);
  `);
}

export function readMemo(key: string): MemoEntry | null {
  const row = database()
    .prepare('SELECT key, file_path AS filePath, value, computed_at AS computedAt FROM memo_entries WHERE key = ?')
    .get(key) as MemoEntry | undefined;
  return row ?? null;
}

export function writeMemo(key: string, filePath: string, value: string, reads: readonly string[]): void {
  const database_ = database();
  database_.prepare('INSERT OR REPLACE INTO memo_entries (key, file_path, value) VALUES (?, ?, ?)').run(key, filePath, value);
  const edge = database_.prepare('INSERT OR IGNORE INTO dependency_edges (parent_path, child_path) VALUES (?, ?)');
  for (const read of reads) edge.run(read, filePath);
}

/** Every file that depends on `changedPath`, directly or through other files; cycles end the walk. */
export function dependentsOf(changedPath: string): string[] {
  const rows = database()
    .prepare(
      `WITH RECURSIVE dependents(child_path) AS (
         SELECT child_path FROM dependency_edges WHERE parent_path = ?
         UNION
         SELECT e.child_path FROM dependency_edges e JOIN dependents d ON e.parent_path = d.child_path
       )
       SELECT child_path FROM dependents`,
    )
    .all(changedPath) as { child_path: string }[];
  return rows.map((r) => r.child_path);
}

export function invalidate(changedPath: string): number {
  const stale = [changedPath, ...dependentsOf(changedPath)];
  const drop = database().prepare('DELETE FROM memo_entries WHERE file_path = ?');
  let dropped = 0;
  for (const file of stale) dropped += drop.run(file).changes;
  return dropped;
}
