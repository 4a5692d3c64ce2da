import type Database from 'better-sqlite3';

/** Schema migrations of the memory index, by version; each runs once, in order. */
type Migration = (db: Database.Database) => void;

/** Before the unique index on active logical keys: older rows may repeat a key, keep the newest. */
export function deprecateDuplicateActiveLogicalKeysBeforeUniqueIndex(db: Database.Database): void {
  db.exec(`
    UPDATE memory_index SET tier = 'deprecated'
     WHERE id IN (
       SELECT id FROM (
         SELECT id, ROW_NUMBER() OVER (PARTITION BY logical_key ORDER BY updated_at DESC, id DESC) AS rn
           FROM memory_index WHERE tier != 'deprecated' AND logical_key IS NOT NULL
       ) WHERE rn > 1
     )`);
}

/** Sparse by version: versions whose change moved elsewhere have no entry. */
export const migrations: Migration[] = [];

migrations[12] = (db) => {
  db.exec(`CREATE VIRTUAL TABLE memory_fts USING fts5(title, content, content='memory_index', content_rowid='id')`);
  db.exec(`CREATE TRIGGER memory_fts_insert AFTER INSERT ON memory_index BEGIN
      INSERT INTO memory_fts(rowid, title, content) VALUES (new.id, new.title, new.content); END`);
  db.exec(`CREATE TRIGGER memory_fts_delete AFTER DELETE ON memory_index BEGIN
      INSERT INTO memory_fts(memory_fts, rowid, title, content) VALUES ('delete', old.id, old.title, old.content); END`);
  db.exec(`CREATE TRIGGER memory_fts_update AFTER UPDATE ON memory_index BEGIN
      INSERT INTO memory_fts(memory_fts, rowid, title, content) VALUES ('delete', old.id, old.title, old.content);
      INSERT INTO memory_fts(rowid, title, content) VALUES (new.id, new.title, new.content); END`);
};

migrations[18] = (db) => {
  db.exec(`CREATE TABLE IF NOT EXISTS vec_metadata (profile TEXT PRIMARY KEY, dimensions INTEGER NOT NULL, model TEXT NOT NULL)`);
};

migrations[24] = (db) => {
  deprecateDuplicateActiveLogicalKeysBeforeUniqueIndex(db);
  db.exec(`CREATE UNIQUE INDEX idx_memory_logical_key_active_unique ON memory_index(logical_key) WHERE tier != 'deprecated'`);
};

migrations[25] = (db) => {
  // SQLite cannot add a CHECK constraint to a table: rebuild it.
  db.exec(`
      CREATE TABLE memory_index_new (
        id INTEGER PRIMARY KEY,
        spec_folder TEXT NOT NULL,
        parent_id INTEGER,
        logical_key TEXT,
        title TEXT NOT NULL,
        content TEXT NOT NULL,
        tier TEXT NOT NULL CHECK (tier IN ('core', 'working', 'deprecated')),
        updated_at TEXT NOT NULL
      );
      INSERT INTO memory_index_new SELECT * FROM memory_index;
      DROP TABLE memory_index;
      ALTER TABLE memory_index_new RENAME TO memory_index;`);
};

export function run_migrations(db: Database.Database): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  const pending = migrations.flatMap((m, version) => (m && version > current ? [version] : []));
  for (const version of pending) {
    db.transaction(() => {
      migrations[version]!(db);
      db.pragma(`user_version = ${version}`);
    })();
  }
  return pending.length;
}

/** Full-text candidates ranked by bm25 (lower is better). */
export function ftsCandidates(db: Database.Database, query: string, limit: number): { id: number; rank: number }[] {
  return db.prepare('SELECT rowid AS id, bm25(memory_fts) AS rank FROM memory_fts WHERE memory_fts MATCH ? ORDER BY rank LIMIT ?').all(query, limit) as { id: number; rank: number }[];
}
