import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { ensure_vector_shard_schema, vector_table_name_for_profile } from './vector-index-store.js';

/**
 * One-time move from the single-file index (vectors beside the memories) to the canonical
 * file plus one shard per embedding profile. Runs synchronously at start-up, before serving.
 */
function copyShardPayloadTable(canonical: Database.Database, from: string, to: string): number {
  return canonical.prepare(`INSERT INTO ${to} (rowid, embedding) SELECT rowid, embedding FROM ${from}`).run().changes;
}

export function migrateLegacySingleDbToShardSync(legacyPath: string, canonicalPath: string, profile: string, dimensions: number): number {
  const canonical = new Database(canonicalPath, { fileMustExist: false });
  sqliteVec.load(canonical);
  try {
    canonical.exec(`ATTACH DATABASE '${legacyPath.replace(/'/g, "''")}' AS legacy`);
    ensure_vector_shard_schema(canonical, `${canonicalPath}.${profile}.shard`, profile, dimensions);
    const copied = copyShardPayloadTable(canonical, 'legacy.vec_memories', `active_vectors.${vector_table_name_for_profile(profile)}`);
    canonical.exec('DETACH DATABASE legacy');
    return copied;
  } finally {
    canonical.close();
  }
}
