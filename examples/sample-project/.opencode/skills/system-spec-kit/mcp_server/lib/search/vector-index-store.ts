import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { run_migrations } from './vector-index-schema.js';

/**
 * The memory index database: one canonical file plus one attached shard per embedding profile
 * (vector tables differ in dimension), with sqlite-vec's vec0 tables for KNN search.
 */
export const ACTIVE_VECTOR_SCHEMA = 'active_vectors';

let database: Database.Database | null = null;
let databasePath = '';

export function vector_table_name_for_profile(profile: string): string {
  return `vec_memories_${profile.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}`;
}

export function initialize_db(path: string, profile: string, dimensions: number): Database.Database {
  const db = new Database(path, { timeout: 5000 });
  sqliteVec.load(db);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  db.pragma('cache_size = -16000');
  db.pragma('mmap_size = 268435456');
  db.pragma('synchronous = NORMAL');
  db.pragma('wal_autocheckpoint = 1000');
  db.pragma('temp_store = MEMORY');
  run_migrations(db);
  ensure_vector_shard_schema(db, `${path}.${profile}.shard`, profile, dimensions);
  create_legacy_temp_aliases(db, profile);
  database = db;
  databasePath = path;
  return db;
}

/** Attaches the profile's shard and creates its vec0 table when it is new. */
export function ensure_vector_shard_schema(db: Database.Database, shardPath: string, profile: string, dimensions: number): void {
  const attached = db.prepare('PRAGMA database_list').all() as { name: string }[];
  if (!attached.some((a) => a.name === ACTIVE_VECTOR_SCHEMA)) db.prepare(`ATTACH DATABASE ? AS ${ACTIVE_VECTOR_SCHEMA}`).run(shardPath);
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${ACTIVE_VECTOR_SCHEMA}.${vector_table_name_for_profile(profile)} USING vec0(embedding float[${dimensions}])`);
}

/** Older tools query `vec_memories` unqualified: a temp view keeps them working. */
export function create_legacy_temp_aliases(db: Database.Database, profile: string): void {
  db.exec(`DROP VIEW IF EXISTS temp.vec_memories`);
  db.exec(`CREATE TEMP VIEW vec_memories AS SELECT rowid, embedding FROM ${ACTIVE_VECTOR_SCHEMA}.${vector_table_name_for_profile(profile)}`);
}

export function nearest(db: Database.Database, profile: string, embedding: Float32Array, limit: number): { rowid: number; distance: number }[] {
  return db
    .prepare(`SELECT rowid, vec_distance_cosine(embedding, ?) AS distance FROM ${ACTIVE_VECTOR_SCHEMA}.${vector_table_name_for_profile(profile)} ORDER BY distance LIMIT ?`)
    .all(Buffer.from(embedding.buffer), limit) as { rowid: number; distance: number }[];
}

/** Reopens the index after a restore; the WAL is folded in first so no page is lost. */
export function reopenActiveDatabase(profile: string, dimensions: number): Database.Database {
  if (database) {
    database.pragma('wal_checkpoint(TRUNCATE)');
    database.close();
  }
  return initialize_db(databasePath, profile, dimensions);
}

export function integrityOk(db: Database.Database): boolean {
  const rows = db.pragma('quick_check') as { quick_check: string }[];
  return rows.length === 1 && rows[0]!.quick_check === 'ok';
}

/** Copies the checkpoint catalog of a backup file into the live index (restore without downtime). */
export function merge_checkpoint_catalog_from_backup(db: Database.Database, backupPath: string): number {
  db.prepare('ATTACH DATABASE ? AS backup').run(backupPath);
  try {
    return db.prepare('INSERT OR IGNORE INTO checkpoint_catalog SELECT * FROM backup.checkpoint_catalog').run().changes;
  } finally {
    db.exec('DETACH DATABASE backup');
  }
}
