import { WorkbenchError } from "../../core/errors";
import { getDb } from "../client";
import { tryClusterLock } from "../cluster-lock";
import { isoTime } from "../db-values";
import type { IndexJobDto, IndexStats, JobPhase, JobStatus } from "../dto";

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

/**
 * Jobs left running by a process that died are failed on start-up, so the UI never waits
 * forever. A job whose project lock is held is alive on another instance and is left alone.
 */
export async function failStaleJobs(): Promise<void> {
  const db = await getDb();
  const active = await db.indexJob.findMany({ where: { status: { in: ["queued", "running"] } }, select: { projectId: true }, distinct: ["projectId"] });
  for (const { projectId } of active) {
    // Held while failing, so a job another instance starts meanwhile is not failed with them.
    const lock = await tryClusterLock(indexLockName(projectId));
    if (!lock) continue;
    try {
      await db.indexJob.updateMany({
        where: { projectId, status: { in: ["queued", "running"] } },
        data: { status: "failed", error: "The server stopped while this job was running.", finishedAt: new Date() },
      });
    } finally {
      await lock.release();
    }
  }
}
