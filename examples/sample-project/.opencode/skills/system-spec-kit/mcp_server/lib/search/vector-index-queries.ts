import type Database from 'better-sqlite3';
import { ACTIVE_VECTOR_SCHEMA, vector_table_name_for_profile } from './vector-index-store.js';

/** Memories nearest to `embedding` that are still live (not deprecated). */
export function searchByVector(db: Database.Database, profile: string, embedding: Float32Array, limit: number): { id: number; distance: number }[] {
  const table = `${ACTIVE_VECTOR_SCHEMA}.${vector_table_name_for_profile(profile)}`;
  return db
    .prepare(
      `SELECT m.id, vec_distance_cosine(v.embedding, ?) AS distance
         FROM ${table} v JOIN memory_index m ON m.id = v.rowid
        WHERE m.tier != 'deprecated'
        ORDER BY distance LIMIT ?`,
    )
    .all(Buffer.from(embedding.buffer), limit) as { id: number; distance: number }[];
}

/** Drops vectors whose memory is gone; returns how many went. */
export function verify_integrity(db: Database.Database, profile: string): number {
  const table = `${ACTIVE_VECTOR_SCHEMA}.${vector_table_name_for_profile(profile)}`;
  return db.prepare(`DELETE FROM ${table} WHERE rowid NOT IN (SELECT id FROM memory_index)`).run().changes;
}
