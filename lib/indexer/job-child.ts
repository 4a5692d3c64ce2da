/**
 * One server index job, in a process of its own (`workbench index-job <id>`, started by
 * lib/indexer/jobs.ts), so reading and parsing a large project never holds up a request. The
 * job works in a staging area (lib/db/staging.ts): its writes reach the stored project only
 * when it is applied, in the transaction that records the job's success. Progress goes to the
 * job's row as it goes, which the job panel polls.
 */
import { toWorkbenchError } from "../core/errors";
import { databaseKind } from "../db/database-url";
import type { IndexStats, JobPhase, JobStatus } from "../db/dto";
import { endJob, getJob, jobStatus, markJobRunning, succeedJobIn, updateJobProgress } from "../db/repositories/jobs";
import { withSqlTransaction } from "../db/sql-tx";
import { openStagingArea } from "../db/staging";
import { syncRunSearch } from "../search/sync";
import { indexProject } from "./index-project";
import { unchangedStats } from "./unchanged";

/** Progress is written at most this often, so a large index is not slowed by its own reporting. */
const PROGRESS_INTERVAL_MS = 200;
/** How often the job looks whether it was cancelled (from another instance: this one kills the process). */
const CANCEL_POLL_MS = 250;

export interface JobChildOptions {
  full: boolean;
  /** Called when the job is found cancelled while it runs: the process ends there (its staging area with it). */
  onCancelled: () => void;
}

/** Runs the job to its end and answers its final status. */
export async function runIndexJob(jobId: string, opts: JobChildOptions): Promise<JobStatus> {
  const started = Date.now();
  const { projectId } = await getJob(jobId);
  if (!(await markJobRunning(jobId))) return (await jobStatus(jobId)) ?? "cancelled";

  let cancelled = false;
  const cancel = () => {
    if (cancelled) return;
    cancelled = true;
    opts.onCancelled();
  };
  const watch = setInterval(() => {
    void jobStatus(jobId).then(
      (s) => {
        if (s !== "running") cancel();
      },
      () => undefined,
    );
  }, CANCEL_POLL_MS);
  watch.unref();

  let last = 0;
  let lastPhase: JobPhase | null = null;
  let paused = false;
  let pending: Promise<void> = Promise.resolve();
  // Each new phase is written (the panel names it); counts within a phase at most every PROGRESS_INTERVAL_MS.
  const progress = (phase: JobPhase, done: number, total: number) => {
    const now = Date.now();
    if (paused || (now - last < PROGRESS_INTERVAL_MS && phase === lastPhase)) return;
    last = now;
    lastPhase = phase;
    pending = pending.then(() =>
      updateJobProgress(jobId, { phase, filesDone: done, filesTotal: total }).then(
        (stillRunning) => void (stillRunning || cancel()),
        () => undefined,
      ),
    );
  };

  try {
    const finish = (stats: Omit<IndexStats, "durationMs">) => ({ ...stats, durationMs: Date.now() - started });
    if (!opts.full) {
      progress("freshness", 0, 0);
      // Nothing the last job looked at changed: its result stands, and nothing is copied or written.
      const unchanged = await unchangedStats(projectId);
      if (unchanged) {
        clearInterval(watch);
        await pending;
        const ok = await withSqlTransaction((tx) => succeedJobIn(tx, jobId, finish(unchanged)));
        return ok ? "succeeded" : ((await jobStatus(jobId)) ?? "cancelled");
      }
    }
    const area = await openStagingArea(projectId);
    try {
      const stats = await area.run(async () => {
        const s = await indexProject(projectId, progress, { full: opts.full, compared: !opts.full });
        progress("runs", 0, 0);
        // The findings of the project's runs: reducing a large run takes seconds, which is why it is here.
        await syncRunSearch(projectId).catch((e: unknown) => console.error("[workbench] indexing findings for search", projectId, e));
        return s;
      });
      progress("saving", stats.filesChanged, stats.filesChanged);
      // Nothing else of this job writes while it is applied: on SQLite a progress write would wait for this very transaction.
      paused = true;
      clearInterval(watch);
      await pending;
      const applied = await withApplyTurn(() => area.apply((tx) => succeedJobIn(tx, jobId, finish(stats))));
      if (!applied.applied) return (await jobStatus(jobId)) ?? "cancelled";
      console.error(`[workbench] index job ${jobId}: ${applied.rows} rows applied in ${Math.round(applied.ms)} ms`);
      return "succeeded";
    } finally {
      await area.close();
    }
  } catch (e) {
    clearInterval(watch);
    await pending;
    const err = toWorkbenchError(e);
    if (err.code === "INTERNAL") console.error("[workbench] indexing failed", projectId, err.details ?? err);
    await endJob(jobId, "failed", err.message).catch(() => undefined);
    return (await jobStatus(jobId).catch(() => null)) ?? "failed";
  } finally {
    clearInterval(watch);
  }
}

/** Messages between a job's process and the server that started it (lib/indexer/jobs.ts). */
export type JobMessage = { type: "apply" } | { type: "apply-granted" } | { type: "applied" };

/**
 * On SQLite, the apply holds the database's write lock, and a write the server makes meanwhile
 * would wait for it on the server's thread (SQLite's busy wait), stalling every request. So the
 * job asks the server first, which takes a turn in its write queue (lib/db/write-gate.ts) for
 * the length of the apply: the server's own writes then wait there, without blocking it.
 */
async function withApplyTurn<T>(apply: () => Promise<T>): Promise<T> {
  const send = process.send?.bind(process);
  if (!send || !process.connected || databaseKind() !== "sqlite") return apply();
  // The channel keeps this process alive only while it waits for the answer (it is unref'd otherwise).
  process.channel?.ref();
  await new Promise<void>((resolve) => {
    const granted = (m: unknown) => {
      if ((m as JobMessage | null)?.type !== "apply-granted") return;
      process.off("message", granted);
      process.channel?.unref();
      resolve();
    };
    process.on("message", granted);
    send({ type: "apply" } satisfies JobMessage);
  });
  try {
    return await apply();
  } finally {
    if (process.connected) send({ type: "applied" } satisfies JobMessage);
  }
}
