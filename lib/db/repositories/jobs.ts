import { WorkbenchError } from "../../core/errors";
import { getDb } from "../client";
import { tryClusterLock } from "../cluster-lock";
import { isoTime } from "../db-values";
import type { IndexJobDto, IndexStats, JobPhase, JobStatus } from "../dto";
import { readSql, type SqlTx } from "../sql-tx";

/** A job as Prisma returns it (Dates) or plain SQL does (SQLite: text; counts may be strings). */
export type JobRow = {
  id: string;
  projectId: string;
  status: string;
  phase: string;
  filesDone: number | string;
  filesTotal: number | string;
  error: string | null;
  statsJson: string;
  createdAt: unknown;
  startedAt: unknown;
  finishedAt: unknown;
};

export const JOB_COLUMNS = `"id", "projectId", "status", "phase", "filesDone", "filesTotal", "error", "statsJson", "createdAt", "startedAt", "finishedAt"`;

export function toJobDto(j: JobRow): IndexJobDto {
  let stats: Partial<IndexStats> = {};
  try {
    stats = JSON.parse(j.statsJson) as Partial<IndexStats>;
  } catch {
    /* stats are informational */
  }
  return {
    id: j.id,
    projectId: j.projectId,
    status: j.status as JobStatus,
    phase: j.phase as JobPhase,
    filesDone: Number(j.filesDone),
    filesTotal: Number(j.filesTotal),
    error: j.error,
    stats,
    createdAt: isoTime(j.createdAt) ?? "",
    startedAt: isoTime(j.startedAt),
    finishedAt: isoTime(j.finishedAt),
  };
}

export async function createJob(projectId: string): Promise<IndexJobDto> {
  const db = await getDb();
  return toJobDto(await db.indexJob.create({ data: { projectId } }));
}

export async function activeJob(projectId: string): Promise<IndexJobDto | null> {
  const db = await getDb();
  const j = await db.indexJob.findFirst({ where: { projectId, status: { in: ["queued", "running"] } }, orderBy: { createdAt: "desc" } });
  return j ? toJobDto(j) : null;
}

export async function updateJob(
  id: string,
  patch: Partial<{ status: JobStatus; phase: JobPhase; filesDone: number; filesTotal: number; error: string | null; stats: Partial<IndexStats>; startedAt: Date; finishedAt: Date }>,
): Promise<void> {
  const db = await getDb();
  const { stats, ...rest } = patch;
  await db.indexJob.update({ where: { id }, data: { ...rest, ...(stats ? { statsJson: JSON.stringify(stats) } : {}) } });
}

export async function getJob(id: string): Promise<IndexJobDto> {
  const db = await getDb();
  const j = await db.indexJob.findUnique({ where: { id } });
  if (!j) throw new WorkbenchError("NOT_FOUND", "No such indexing job.");
  return toJobDto(j);
}

/** A job runs only while its instance holds this lock (see lib/indexer/jobs.ts). */
export const indexLockName = (projectId: string) => `index-project:${projectId}`;

const ACTIVE = ["queued", "running"] as const;

/** A time as the job columns store it: text on SQLite (as Prisma writes it), a timestamp on PostgreSQL. */
const stamp = (kind: "sqlite" | "postgres", d: Date) => (kind === "postgres" ? d : d.toISOString().replace("Z", "+00:00"));

/** A queued job starts; false when it was cancelled before its process started. */
export async function markJobRunning(id: string): Promise<boolean> {
  const db = await getDb();
  const { count } = await db.indexJob.updateMany({ where: { id, status: "queued" }, data: { status: "running", phase: "config", startedAt: new Date() } });
  return count === 1;
}

/** A running job's progress; false when it is no longer running (cancelled from elsewhere). */
export async function updateJobProgress(id: string, patch: { phase: JobPhase; filesDone: number; filesTotal: number }): Promise<boolean> {
  const db = await getDb();
  const { count } = await db.indexJob.updateMany({ where: { id, status: "running" }, data: patch });
  return count === 1;
}

/**
 * Ends a job that has not ended yet: cancelled, failed or interrupted. False when it had
 * already ended (its status stays): a cancel that comes after the job succeeded changes nothing.
 */
export async function endJob(id: string, status: "cancelled" | "failed" | "interrupted", error: string): Promise<boolean> {
  const db = await getDb();
  const { count } = await db.indexJob.updateMany({ where: { id, status: { in: [...ACTIVE] } }, data: { status, error, finishedAt: new Date() } });
  return count === 1;
}

/**
 * The job's success, written in the transaction that applies its index (lib/db/staging.ts), so
 * the project changes if and only if the job is recorded as succeeded. False when the job is
 * no longer running (cancelled meanwhile): the caller then applies nothing.
 */
export async function succeedJobIn(tx: SqlTx, id: string, stats: IndexStats): Promise<boolean> {
  const rows = await tx.all<{ id: string }>(
    `UPDATE "IndexJob" SET "status" = 'succeeded', "phase" = 'done', "statsJson" = ?, "filesDone" = ?, "filesTotal" = ?, "finishedAt" = ?, "error" = NULL WHERE "id" = ? AND "status" = 'running' RETURNING "id"`,
    [JSON.stringify(stats), stats.filesChanged, stats.filesChanged, stamp(tx.kind, new Date()), id],
  );
  return rows.length === 1;
}

/** The job's status as stored now. */
export async function jobStatus(id: string): Promise<JobStatus | null> {
  const [row] = await readSql<{ status: string }>(`SELECT "status" FROM "IndexJob" WHERE "id" = ?`, [id]);
  return (row?.status as JobStatus | undefined) ?? null;
}

/**
 * Jobs left running by a process that died are marked interrupted on start-up, so the UI never
 * waits forever (their index was never applied: the project is as it was). A job whose project
 * lock is held is alive on another instance and is left alone.
 */
export async function failStaleJobs(): Promise<void> {
  const db = await getDb();
  const active = await db.indexJob.findMany({ where: { status: { in: [...ACTIVE] } }, select: { projectId: true }, distinct: ["projectId"] });
  for (const { projectId } of active) {
    // Held while marking, so a job another instance starts meanwhile is not marked with them.
    const lock = await tryClusterLock(indexLockName(projectId));
    if (!lock) continue;
    try {
      await db.indexJob.updateMany({
        where: { projectId, status: { in: [...ACTIVE] } },
        data: { status: "interrupted", error: "The server stopped while this job was running; the project is as it was before the job.", finishedAt: new Date() },
      });
    } finally {
      await lock.release();
    }
  }
}
