import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { vector_table_name_for_profile } from '../search/vector-index-store.js';

/**
 * Re-embeds every memory with a new embedder into a staging shard, then flips the active
 * profile in one transaction, so searches never see a half-built index.
 */
export interface EmbeddedRow {
  id: number;
  embedding: Float32Array;
}

export function writeVectorsToShard(shardPath: string, profile: string, dimensions: number, rows: readonly EmbeddedRow[]): void {
  const shard = new Database(shardPath);
  sqliteVec.load(shard);
  shard.pragma('journal_mode = WAL');
  try {
    shard.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${vector_table_name_for_profile(profile)} USING vec0(embedding float[${dimensions}])`);
    writeVectorsToKnn(shard, profile, rows);
  } finally {
    shard.close();
  }
}

/** vec0 has no upsert: delete then insert, one transaction for the batch. */
export function writeVectorsToKnn(shard: Database.Database, profile: string, rows: readonly EmbeddedRow[]): void {
  const table = vector_table_name_for_profile(profile);
  const remove = shard.prepare(`DELETE FROM ${table} WHERE rowid = ?`);
  const insert = shard.prepare(`INSERT INTO ${table} (rowid, embedding) VALUES (?, ?)`);
  shard.transaction(() => {
    for (const r of rows) {
      remove.run(BigInt(r.id));
      insert.run(BigInt(r.id), Buffer.from(r.embedding.buffer));
    }
  })();
}

/** Points the index at the new profile and marks every memory embedded with it. */
export function complete(db: Database.Database, profile: string, model: string): void {
  db.transaction(() => {
    db.prepare("UPDATE settings SET value = ? WHERE key = 'active_embedder'").run(profile);
    db.prepare('UPDATE memory_index SET embedding_status = ?, embedding_model = ? WHERE embedding_status != ?').run('embedded', model, 'failed');
  })();
}
