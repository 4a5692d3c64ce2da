import { WorkbenchError, toWorkbenchError } from "../core/errors";
import { tryClusterLock, type ClusterLock } from "../db/cluster-lock";
import type { IndexJobDto, JobPhase } from "../db/dto";
import { activeJob, createJob, getJob, indexLockName, updateJob } from "../db/repositories/jobs";
import { indexProject } from "./index-project";
import { syncRunSearch } from "../search/sync";

/** Progress is written at most this often, so a large index is not slowed by its own reporting. */
const PROGRESS_INTERVAL_MS = 200;

const running = new Map<string, Promise<void>>();

/**
 * Starts indexing in the background and returns the job at once; a project already
 * being indexed returns its running job instead of starting a second one.
 */
export interface IndexJobOptions {
  full?: boolean;
  /**
   * Runs after the job has succeeded (its status is already written), e.g. to precompute
   * views of what was indexed; a failure there is logged, never reported as the job's.
   */
  afterSuccess?: () => Promise<void>;
}

export async function startIndexJob(projectId: string, opts: IndexJobOptions = {}): Promise<IndexJobDto> {
  const lock = await claimOrFindJob(projectId);
  if (!("release" in lock)) return lock;
  let job: IndexJobDto;
  try {
    job = await createJob(projectId);
  } catch (e) {
    await lock.release();
    throw e;
  }
  const run = runJob(job.id, projectId, opts).finally(async () => {
    running.delete(projectId);
    await lock.release();
  });
  running.set(projectId, run);
  return job;
}

/**
 * The project's lock (this instance is to index it), or the job another instance, or this
 * one, is running under that lock. The holder writes its job row just after locking, so a
 * loser briefly waits for the row rather than starting a second job.
 */
async function claimOrFindJob(projectId: string): Promise<ClusterLock | IndexJobDto> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const lock = await tryClusterLock(indexLockName(projectId));
    if (lock) return lock;
    const existing = await activeJob(projectId);
    if (existing) return existing;
    if (Date.now() > deadline) throw new WorkbenchError("CONFLICT", "Another instance is starting to index this project; try again in a moment.");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** For callers (tests, CLI) that want to wait for the job they started. */
export async function waitForJob(projectId: string): Promise<void> {
  await running.get(projectId);
}

async function runJob(jobId: string, projectId: string, opts: IndexJobOptions): Promise<void> {
  let last = 0;
  let pending: Promise<void> = Promise.resolve();
  const progress = (phase: JobPhase, done: number, total: number) => {
    const now = Date.now();
    if (now - last < PROGRESS_INTERVAL_MS && phase !== "done") return;
    last = now;
    pending = pending.then(() => updateJob(jobId, { phase, filesDone: done, filesTotal: total }).catch(() => undefined));
  };
  try {
    await updateJob(jobId, { status: "running", phase: "config", startedAt: new Date() });
    const stats = await indexProject(projectId, progress, opts);
    await pending;
    await updateJob(jobId, { status: "succeeded", phase: "done", stats, finishedAt: new Date(), filesDone: stats.filesChanged, filesTotal: stats.filesChanged });
  } catch (e) {
    await failJob(jobId, projectId, e, pending);
    return;
  }
  // The run views computed for search are the ones the run page then reads from the cache.
  void syncRunSearch(projectId)
    .catch((e: unknown) => console.error("[workbench] indexing findings for search", projectId, e))
    .then(() => opts.afterSuccess?.())
    .catch((e: unknown) => console.error("[workbench] after indexing", projectId, e));
}

async function failJob(jobId: string, projectId: string, e: unknown, pending: Promise<void>): Promise<void> {
  await pending;
  const err = toWorkbenchError(e);
  if (err.code === "INTERNAL") console.error("[workbench] indexing failed", projectId, err.details ?? err);
  await updateJob(jobId, { status: "failed", error: err.message, finishedAt: new Date() }).catch(() => undefined);
}

export { getJob };
