import type Database from 'better-sqlite3';
import { readEdges, tombstoneEdges } from '../storage/causal-edges.js';

/**
 * The causal sweep: when memories are deleted, their edges are tombstoned and each deletion is
 * recorded, so a later search can say why a cause it used to show is gone.
 */
export interface SweepResult {
  memoriesSwept: number;
  edgesTombstoned: number;
  tombstoneIds: number[];
}

function hasTable(database: Database.Database, name: string): boolean {
  return database.prepare("SELECT 1 AS present FROM sqlite_master WHERE type='table' AND name = ?").get(name) !== undefined;
}

function hasIndex(database: Database.Database, name: string): boolean {
  return database.prepare("SELECT 1 AS present FROM sqlite_master WHERE type='index' AND name = ?").get(name) !== undefined;
}

export function ensureTombstoneTable(database: Database.Database): void {
  if (!hasTable(database, 'causal_tombstones')) {
    database.exec(`
      CREATE TABLE causal_tombstones (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        memory_id INTEGER NOT NULL,
        edge_count INTEGER NOT NULL,
        reason TEXT NOT NULL,
        swept_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
      )`);
  }
  if (!hasIndex(database, 'idx_causal_tombstones_memory')) {
    database.exec('CREATE INDEX idx_causal_tombstones_memory ON causal_tombstones(memory_id)');
  }
}

/** Tombstones the edges of every memory in `deletedIds` and records one tombstone per memory. */
export function sweepDeleted(database: Database.Database, deletedIds: readonly number[], reason: string): SweepResult {
  ensureTombstoneTable(database);
  const record = database.prepare('INSERT INTO causal_tombstones (memory_id, edge_count, reason) VALUES (?, ?, ?)');
  const result: SweepResult = { memoriesSwept: 0, edgesTombstoned: 0, tombstoneIds: [] };
  for (const memoryId of deletedIds) {
    const edges = readEdges(database, memoryId);
    const tombstoned = tombstoneEdges(database, memoryId);
    const insertResult = record.run(memoryId, Math.max(edges.length, tombstoned), reason);
    result.tombstoneIds.push(Number(insertResult.lastInsertRowid));
    result.memoriesSwept++;
    result.edgesTombstoned += tombstoned;
  }
  return result;
}
