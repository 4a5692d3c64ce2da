import type Database from 'better-sqlite3';
import { insertEdges } from '../storage/causal-edges.js';

/**
 * Promotes `caused_by:` / `supersedes:` lists in spec frontmatter to causal edges between the
 * packets' top-level memories. Child memories (chunks) never carry edges.
 */
export interface FrontmatterLinks {
  specFolder: string;
  causedBy: string[];
  supersedes: string[];
}

/** The top-level memory of each spec folder, by folder. */
export function resolvePacketMemoryIds(database: Database.Database, specFolders: readonly string[]): Map<string, number> {
  if (specFolders.length === 0) return new Map();
  const rows = database
    .prepare(
      `SELECT spec_folder, MIN(id) AS id FROM memory_index
        WHERE spec_folder IN (${specFolders.map(() => '?').join(', ')}) AND COALESCE(parent_id, 0) = 0
        GROUP BY spec_folder`,
    )
    .all(...specFolders) as { spec_folder: string; id: number }[];
  return new Map(rows.map((r) => [r.spec_folder, r.id]));
}

function hasColumn(database: Database.Database, tableName: string, column: string): boolean {
  const columns = database.prepare(`PRAGMA table_info(${tableName})`).all() as { name: string }[];
  return columns.some((c) => c.name === column);
}

export function promoteFrontmatter(database: Database.Database, links: readonly FrontmatterLinks[]): number {
  if (!hasColumn(database, 'memory_index', 'parent_id')) return 0;
  const folders = [...new Set(links.flatMap((l) => [l.specFolder, ...l.causedBy, ...l.supersedes]))];
  const ids = resolvePacketMemoryIds(database, folders);
  const edges = links.flatMap((l) => {
    const target = ids.get(l.specFolder);
    if (target === undefined) return [];
    const from = (folders: string[], relation: string) =>
      folders.flatMap((f) => (ids.has(f) ? [{ sourceId: ids.get(f)!, targetId: target, relation, strength: 1, evidence: `frontmatter of ${l.specFolder}` }] : []));
    return [...from(l.causedBy, 'caused'), ...from(l.supersedes, 'superseded_by')];
  });
  return insertEdges(database, edges);
}
