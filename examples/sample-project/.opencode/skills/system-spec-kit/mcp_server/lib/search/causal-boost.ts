import type Database from 'better-sqlite3';

/**
 * Boosts search results by their causal neighbourhood: a memory two hops from a strong hit
 * shares some of its score. The walk is a recursive CTE over causal_edges.
 */
const MAX_HOPS = 2;
const HOP_DECAY = 0.5;

let db: Database.Database | null = null;

export function init(database: Database.Database): void {
  db = database;
}

export interface Boost {
  memoryId: number;
  originId: number;
  hops: number;
  score: number;
}

/** Neighbours of `originIds` within MAX_HOPS, each with the best decayed score it reaches. */
export function causalNeighbours(originIds: readonly number[], baseScores: ReadonlyMap<number, number>): Boost[] {
  if (!db || originIds.length === 0) return [];
  const seeds = originIds.map(() => 'SELECT ? AS origin_id, ? AS node_id, 0 AS hop_distance, ? AS walk_score').join(' UNION ALL ');
  const params = originIds.flatMap((id) => [id, id, baseScores.get(id) ?? 1]);
  const query = `
    WITH RECURSIVE causal_walk(origin_id, node_id, hop_distance, walk_score) AS (
      ${seeds}
      UNION ALL
      SELECT w.origin_id, e.target_id, w.hop_distance + 1, w.walk_score * ${HOP_DECAY} * e.strength
        FROM causal_walk w
        JOIN causal_edges e ON e.source_id = w.node_id AND e.tombstoned_at IS NULL
       WHERE w.hop_distance < ${MAX_HOPS}
    )
    SELECT node_id, origin_id, MIN(hop_distance) AS hops, MAX(walk_score) AS score
      FROM causal_walk
     WHERE hop_distance > 0
     GROUP BY node_id`;
  const rows = (db.prepare(query) as Database.Statement).all(...params) as { node_id: number; origin_id: number; hops: number; score: number }[];
  return rows.map((r) => ({ memoryId: r.node_id, originId: r.origin_id, hops: r.hops, score: r.score }));
}
