import type Database from 'better-sqlite3';

/**
 * Causal edges between memories ("this decision caused that change"). Columns were added over
 * several schema versions, so readers and writers ask SQLite which ones the table has.
 */
export interface CausalEdge {
  id: number;
  sourceId: number;
  targetId: number;
  relation: string;
  strength: number;
  evidence: string | null;
  tombstoned: boolean;
}

type Row = Record<string, unknown>;

function toEdge(row: Row, columns: Set<string>): CausalEdge {
  return {
    id: Number(row.id),
    sourceId: Number(row.source_id),
    targetId: Number(row.target_id),
    relation: String(row.relation),
    strength: Number(row.strength ?? 1),
    evidence: columns.has('evidence') ? ((row.evidence as string | null) ?? null) : null,
    tombstoned: columns.has('tombstoned_at') ? row.tombstoned_at !== null : false,
  };
}

/** The edges leaving `memoryId` (the sweep reads them to find what a deleted memory caused). */
export function readEdges(database: Database.Database, memoryId: number): CausalEdge[] {
  const columns = new Set((database.prepare('PRAGMA table_info(causal_edges)').all() as { name: string }[]).map((c) => c.name));
  const live = columns.has('tombstoned_at') ? 'AND tombstoned_at IS NULL' : '';
  const rows = database.prepare(`SELECT * FROM causal_edges WHERE source_id = ? ${live} ORDER BY id`).all(memoryId) as Row[];
  return rows.map((r) => toEdge(r, columns));
}

/** Runs `work` in one transaction; nested calls join the outer one. */
export function runInTransaction<T>(database: Database.Database, work: () => T): T {
  if (database.inTransaction) return work();
  return database.transaction(work)();
}

/** The columns causal_edges has in this database (they came over several schema versions). */
function columnsOf(database: Database.Database): Set<string> {
  const rows = database.prepare('PRAGMA table_info(causal_edges)').all() as { name: string }[];
  return new Set(rows.map((r) => r.name));
}

export function insertEdge(database: Database.Database, edge: Omit<CausalEdge, 'id' | 'tombstoned'>): number {
  const columns = columnsOf(database);
  const names = ['source_id', 'target_id', 'relation', 'strength', ...(columns.has('evidence') ? ['evidence'] : [])];
  const values = [edge.sourceId, edge.targetId, edge.relation, edge.strength, ...(columns.has('evidence') ? [edge.evidence] : [])];
  const result = database.prepare(`INSERT INTO causal_edges (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`).run(...values);
  return Number(result.lastInsertRowid);
}

/** Inserts many edges at once; the column list is read once for the batch. */
export function insertEdges(database: Database.Database, edges: readonly Omit<CausalEdge, 'id' | 'tombstoned'>[]): number {
  const columns = new Set((database.prepare('PRAGMA table_info(causal_edges)').all() as { name: string }[]).map((c) => c.name));
  const withEvidence = columns.has('evidence');
  const insert = database.prepare(
    withEvidence
      ? 'INSERT INTO causal_edges (source_id, target_id, relation, strength, evidence) VALUES (?, ?, ?, ?, ?)'
      : 'INSERT INTO causal_edges (source_id, target_id, relation, strength) VALUES (?, ?, ?, ?)',
  );
  database.transaction(() => {
    for (const e of edges) {
      if (withEvidence) insert.run(e.sourceId, e.targetId, e.relation, e.strength, e.evidence);
      else insert.run(e.sourceId, e.targetId, e.relation, e.strength);
    }
  })();
  return edges.length;
}

/** Moves every edge of `fromId` to `toId` (a memory superseded by another). */
export function reassignEdges(database: Database.Database, fromId: number, toId: number): number {
  return runInTransaction(database, () => {
    const out = database.prepare('UPDATE causal_edges SET source_id = ? WHERE source_id = ?').run(toId, fromId).changes;
    const into = database.prepare('UPDATE causal_edges SET target_id = ? WHERE target_id = ?').run(toId, fromId).changes;
    return out + into;
  });
}

/** Marks the edges of a deleted memory instead of deleting them, so the sweep can explain what went. */
export function tombstoneEdges(database: Database.Database, memoryId: number): number {
  if (!columnsOf(database).has('tombstoned_at')) return 0;
  return database
    .prepare("UPDATE causal_edges SET tombstoned_at = datetime('now') WHERE (source_id = ? OR target_id = ?) AND tombstoned_at IS NULL")
    .run(memoryId, memoryId).changes;
}
