import { WorkbenchError } from "../../core/errors";
import { getDb } from "../client";
import { bool } from "../db-values";
import { readSql } from "../sql-tx";

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
  const db = await getDb();
  const keyOf = (r: { relPath: string; loopType: string }) => `${r.loopType}\u0000${r.relPath}`;
  const existing = new Map((await db.deepRun.findMany({ where: { projectId }, select: { id: true, relPath: true, loopType: true } })).map((r) => [keyOf(r), r.id]));
  const data = (r: RunRowInput) => ({
    relPath: r.relPath,
    loopType: r.loopType,
    specFolder: r.specFolder,
    archived: r.archived,
    scope: r.scope,
    status: r.status,
    iterations: r.iterations,
    decision: r.decision,
    stopReason: r.stopReason,
    findings: r.findings,
    lastEventAt: r.lastEventAt,
    summaryJson: JSON.stringify({ executors: r.executors, corruptLines: r.corruptLines }),
  });
  const found = new Set(runs.map(keyOf));
  await db.$transaction([
    db.deepRun.deleteMany({ where: { projectId, id: { in: [...existing].filter(([k]) => !found.has(k)).map(([, id]) => id) } } }),
    ...runs.filter((r) => existing.has(keyOf(r))).map((r) => db.deepRun.update({ where: { id: existing.get(keyOf(r))! }, data: data(r) })),
    db.deepRun.createMany({ data: runs.filter((r) => !existing.has(keyOf(r))).map((r) => ({ projectId, ...data(r) })) }),
  ]);
}

export async function listRuns(projectId: string): Promise<RunRowDto[]> {
  const db = await getDb();
  const rows = await db.deepRun.findMany({ where: { projectId }, orderBy: [{ archived: "asc" }, { lastEventAt: { sort: "desc", nulls: "last" } }, { relPath: "asc" }] });
  return rows.map(toDto);
}

export async function getRun(projectId: string, runId: string): Promise<RunRowDto> {
  // Plain SQL: every view of a run page asks (see lib/db/read-connection.ts for why not Prisma).
  const [r] = await readSql<Omit<Row, "archived"> & { archived: unknown }>(
    `SELECT "id", "relPath", "loopType", "specFolder", "archived", "scope", "status", "iterations", "decision", "stopReason", "findings", "lastEventAt", "summaryJson" FROM "DeepRun" WHERE "id" = ? AND "projectId" = ?`,
    [runId, projectId],
  );
  if (!r) throw new WorkbenchError("NOT_FOUND", "No such run.");
  return toDto({ ...r, archived: bool(r.archived) });
}
