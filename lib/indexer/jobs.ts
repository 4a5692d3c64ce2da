import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { WorkbenchError } from "../core/errors";
import { appRoot } from "../db/app-root";
import { tryClusterLock, type ClusterLock } from "../db/cluster-lock";
import type { IndexJobDto } from "../db/dto";
import { activeJob, createJob, endJob, getJob, indexLockName, jobStatus } from "../db/repositories/jobs";
import { queueWrite } from "../db/write-gate";
import type { JobMessage } from "./job-child";

/**
 * Index jobs run in a process of their own (lib/indexer/job-child.ts), one per job: reading and
 * parsing a large project takes seconds of CPU, which on the server's thread held up every
 * request. The process is started at a lower priority, so requests get the CPU first, and it
 * ends when this one does (it watches its IPC channel).
 */
const running = new Map<string, Promise<void>>();
const processes = new Map<string, ChildProcess>();

/** Niceness of a job's process: below the server's, so requests are served first. */
const JOB_NICENESS = 10;

export interface IndexJobOptions {
  full?: boolean;
  /**
   * Runs after the job has succeeded (its status is already written), e.g. to precompute
   * views of what was indexed; a failure there is logged, never reported as the job's.
   */
  afterSuccess?: () => Promise<void>;
}

/**
 * Starts indexing in the background and returns the job at once; a project already
 * being indexed returns its running job instead of starting a second one.
 */
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

/** The process running a job of this instance (tests kill it to show a crash changes nothing). */
export function indexJobProcess(jobId: string): ChildProcess | undefined {
  return processes.get(jobId);
}

/**
 * Cancels a job that has not ended: it is marked cancelled at once (so its index can no longer
 * be applied, see lib/db/staging.ts) and its process, when this instance runs it, is ended;
 * one on another instance sees the mark within a second and ends itself. A job that has
 * already ended cannot be cancelled.
 */
export async function cancelIndexJob(jobId: string): Promise<IndexJobDto> {
  const job = await getJob(jobId);
  if (!(await endJob(jobId, "cancelled", "Cancelled; the project is as it was before the job."))) {
    throw new WorkbenchError("CONFLICT", `This job has already ended (${(await getJob(jobId)).status}).`);
  }
  processes.get(job.id)?.kill("SIGKILL");
  return getJob(jobId);
}

async function runJob(jobId: string, projectId: string, opts: IndexJobOptions): Promise<void> {
  let ending: string;
  try {
    ending = await runJobProcess(jobId, opts.full === true);
  } catch (e) {
    ending = e instanceof Error ? e.message : String(e);
  }
  const status = await jobStatus(jobId).catch(() => null);
  if (status === "queued" || status === "running") {
    // Killed, or crashed before it could say: its staging area went with it, so nothing was applied.
    await endJob(jobId, "interrupted", `The indexing process ended before the job finished (${ending}); the project is as it was before the job.`).catch((e: unknown) =>
      console.error("[workbench] marking an index job interrupted", jobId, e),
    );
    return;
  }
  if (status === "succeeded" && opts.afterSuccess) {
    void opts.afterSuccess().catch((e: unknown) => console.error("[workbench] after indexing", projectId, e));
  }
}

/** `workbench index-job <id>` in a child process; resolves with how it ended. */
function runJobProcess(jobId: string, full: boolean): Promise<string> {
  const root = appRoot();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, "bin", "workbench.cjs"), "index-job", jobId, ...(full ? ["--full"] : [])], {
      cwd: root,
      env: { ...process.env, WORKBENCH_APP_ROOT: root },
      // The IPC channel closes when this process ends, however it ends: the job then ends too.
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    processes.set(jobId, child);
    // The job's apply takes a turn in this process's write queue (see withApplyTurn in job-child.ts).
    let endTurn: (() => void) | null = null;
    const ended = () => endTurn?.();
    child.on("message", (m: JobMessage) => {
      if (m.type === "apply") {
        void queueWrite(
          "an index job applying its index",
          () =>
            new Promise<void>((release) => {
              endTurn = release;
              // The apply holds the write lock: it runs at the server's priority where that is
              // allowed (raising a priority needs the privilege), so the writes waiting for it wait less.
              restorePriority(child);
              if (child.connected) child.send({ type: "apply-granted" } satisfies JobMessage);
              else release();
            }),
        );
      } else if (m.type === "applied") ended();
    });
    child.once("exit", ended);
    child.once("error", (e) => {
      processes.delete(jobId);
      reject(e);
    });
    child.once("exit", (code, signal) => {
      processes.delete(jobId);
      resolve(signal ? `signal ${signal}` : `exit code ${code}`);
    });
    if (child.pid !== undefined) {
      try {
        os.setPriority(child.pid, JOB_NICENESS);
      } catch {
        // Not allowed here (some containers): the job still runs, at the server's priority.
      }
    }
  });
}

function restorePriority(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    os.setPriority(child.pid, os.getPriority());
  } catch {
    // Not allowed (no privilege to raise a priority): the apply runs at the job's priority.
  }
}

export { getJob };
