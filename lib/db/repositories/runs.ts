import { randomUUID } from "node:crypto";
import { WorkbenchError } from "../../core/errors";
import { bool } from "../db-values";
import { readSql, withSqlTransaction } from "../sql-tx";

export interface RunRowDto {
  id: string;
  relPath: string;
  loopType: string;
  specFolder: string;
  archived: boolean;
  scope: string | null;
  status: string | null;
  iterations: number;
  decision: string | null;
  stopReason: string | null;
  findings: number | null;
  lastEventAt: string | null;
  executors: string[];
  corruptLines: number;
}

/** What a run row is written from (lib/deep-context's RunSummary, as the indexer reads each packet). */
export type RunRowInput = Omit<RunRowDto, "id">;

type Row = {
  id: string;
  relPath: string;
  loopType: string;
  specFolder: string;
  archived: boolean;
  scope: string | null;
  status: string | null;
  iterations: number;
  decision: string | null;
  stopReason: string | null;
  findings: number | null;
  lastEventAt: string | null;
  summaryJson: string;
};

const RUN_COLUMNS = `"id", "relPath", "loopType", "specFolder", "archived", "scope", "status", "iterations", "decision", "stopReason", "findings", "lastEventAt", "summaryJson"`;

function toDto(r: Row): RunRowDto {
  let extra: { executors?: string[]; corruptLines?: number } = {};
  try {
    extra = JSON.parse(r.summaryJson) as typeof extra;
  } catch {
    /* list extras only */
  }
  const { summaryJson: _, ...rest } = r;
  return { ...rest, executors: extra.executors ?? [], corruptLines: extra.corruptLines ?? 0 };
}

/**
 * Replaces the project's run list with what the latest index found. A run that is still
 * there keeps its id, so links to it (and search entries of its findings) stay valid.
 */
export async function replaceRuns(projectId: string, runs: readonly RunRowInput[]): Promise<void> {
  const keyOf = (r: { relPath: string; loopType: string }) => `${r.loopType}\u0000${r.relPath}`;
  const values = (r: RunRowInput) => [
    r.specFolder,
    r.archived,
    r.scope,
    r.status,
    r.iterations,
    r.decision,
    r.stopReason,
    r.findings,
    r.lastEventAt,
    JSON.stringify({ executors: r.executors, corruptLines: r.corruptLines }),
  ];
  // Plain SQL, and only rows that differ are written: every index re-reads the run packets,
  // and on an unchanged project this must write nothing (and not load the Prisma client).
  await withSqlTransaction(async (tx) => {
    const stored = await tx.all<Row & { archived: unknown }>(`SELECT ${RUN_COLUMNS} FROM "DeepRun" WHERE "projectId" = ?`, [projectId]);
    const existing = new Map(stored.map((r) => [keyOf(r), r]));
    const found = new Set(runs.map(keyOf));
    for (const r of stored) if (!found.has(keyOf(r))) await tx.run(`DELETE FROM "DeepRun" WHERE "id" = ?`, [r.id]);
    const fresh: unknown[][] = [];
    for (const run of runs) {
      const old = existing.get(keyOf(run));
      const next = values(run);
      if (!old) {
        fresh.push([randomUUID(), projectId, run.relPath, run.loopType, ...next]);
        continue;
      }
      const before = [
        old.specFolder,
        bool(old.archived),
        old.scope,
        old.status,
        Number(old.iterations),
        old.decision,
        old.stopReason,
        old.findings === null ? null : Number(old.findings),
        old.lastEventAt,
        old.summaryJson,
      ];
      if (before.every((v, i) => v === next[i])) continue;
      await tx.run(
        `UPDATE "DeepRun" SET "specFolder" = ?, "archived" = ?, "scope" = ?, "status" = ?, "iterations" = ?, "decision" = ?, "stopReason" = ?, "findings" = ?, "lastEventAt" = ?, "summaryJson" = ? WHERE "id" = ?`,
        [...next, old.id],
      );
    }
    await tx.insert("DeepRun", ["id", "projectId", "relPath", "loopType", "specFolder", "archived", "scope", "status", "iterations", "decision", "stopReason", "findings", "lastEventAt", "summaryJson"], fresh, (r) => r);
  });
}

export async function listRuns(projectId: string): Promise<RunRowDto[]> {
  // Plain SQL: an index job reads the runs it has just written in its staging area (lib/db/staging.ts).
  const rows = await readSql<Omit<Row, "archived"> & { archived: unknown }>(
    `SELECT ${RUN_COLUMNS} FROM "DeepRun" WHERE "projectId" = ? ORDER BY "archived" ASC, "lastEventAt" IS NULL, "lastEventAt" DESC, "relPath" ASC`,
    [projectId],
  );
  return rows.map((r) => toDto({ ...r, archived: bool(r.archived) }));
}

export async function getRun(projectId: string, runId: string): Promise<RunRowDto> {
  // Plain SQL: every view of a run page asks (see lib/db/read-connection.ts for why not Prisma).
  const [r] = await readSql<Omit<Row, "archived"> & { archived: unknown }>(`SELECT ${RUN_COLUMNS} FROM "DeepRun" WHERE "id" = ? AND "projectId" = ?`, [runId, projectId]);
  if (!r) throw new WorkbenchError("NOT_FOUND", "No such run.");
  return toDto({ ...r, archived: bool(r.archived) });
}
