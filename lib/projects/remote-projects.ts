import fs from "node:fs";
import path from "node:path";
import { toWorkbenchError, WorkbenchError } from "../core/errors";
import type { IndexJobDto, ProjectDto } from "../db/dto";
import { gitFingerprint } from "../core/git";
import { findProjectByRoot, getProject, getProjectIndexState, recordFetch, upsertRemoteProject } from "../db/repositories/projects";
import { startIndexJob, type IndexJobOptions } from "../indexer/jobs";
import { checkoutDirFor, cloneRemote, fetchRemote, nameFromUrl, removeCheckout } from "./remote";

/**
 * Clones a remote into the data directory and registers the checkout as a project
 * (idempotent by remote and branch). Nothing is stored when the clone fails.
 */
export async function addRemoteProject(input: { url: string; branch?: string; name?: string }): Promise<ProjectDto> {
  const dir = checkoutDirFor(input.url, input.branch);
  const existing = await findProjectByRoot(dir);
  if (existing) return existing;
  const { branch } = await cloneRemote(input.url, input.branch, dir);
  try {
    return await upsertRemoteProject(dir, input.name || nameFromUrl(input.url), { url: input.url, branch });
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** Removes the Workbench's own checkout of a remote project; a folder project's files are the user's and stay. */
export function removeRemoteCheckout(project: ProjectDto): void {
  if (project.remote) removeCheckout(project.rootPath);
}

export interface FetchResult {
  changed: boolean;
  head: string;
  /** The incremental index job started because HEAD moved; null when nothing changed. */
  job: IndexJobDto | null;
}

/**
 * Fetches a remote project's branch and, when its HEAD moved, starts an index job (which
 * re-reads only the files that changed). The outcome is recorded on the project either way.
 */
export function fetchProject(projectId: string, jobOpts: IndexJobOptions & { startJob?: boolean } = {}): Promise<FetchResult> {
  // Two fetches of one checkout at once would trip over git's lock files; share the first.
  const running = inFlight.get(projectId);
  if (running) return running;
  const run = fetchOnce(projectId, jobOpts).finally(() => inFlight.delete(projectId));
  inFlight.set(projectId, run);
  return run;
}

const inFlight = new Map<string, Promise<FetchResult>>();

async function fetchOnce(projectId: string, jobOpts: IndexJobOptions & { startJob?: boolean }): Promise<FetchResult> {
  const project = await getProject(projectId);
  if (!project.remote) throw new WorkbenchError("INVALID_INPUT", "This project was not added from a git remote, so there is nothing to fetch.");
  let result: { changed: boolean; head: string };
  try {
    const { url, branch } = project.remote;
    // A checkout lost with the data folder (a restored backup, a cleaned disk) is cloned again.
    result = fs.existsSync(path.join(project.rootPath, ".git")) ? await fetchRemote(project.rootPath, url, branch) : { changed: true, head: (await cloneRemote(url, branch, project.rootPath)).head };
  } catch (e) {
    const err = toWorkbenchError(e);
    await recordFetch(projectId, err.message);
    throw err;
  }
  await recordFetch(projectId, null);
  // The checkout may have moved before without being indexed (a process killed between the
  // reset and its job): what the stored index was built from decides, not this fetch alone.
  const unindexed = !result.changed && (await getProjectIndexState(projectId))?.gitFingerprint !== (await gitFingerprint(project.rootPath));
  // The CLI indexes in its own process instead (startJob: false), to wait for it and print progress.
  const job = (result.changed || unindexed) && jobOpts.startJob !== false ? await startIndexJob(projectId, jobOpts) : null;
  return { ...result, job };
}
