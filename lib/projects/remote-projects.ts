import fs from "node:fs";
import { toWorkbenchError, WorkbenchError } from "../core/errors";
import type { IndexJobDto, ProjectDto } from "../db/dto";
import { findProjectByRoot, getProject, recordFetch, upsertRemoteProject } from "../db/repositories/projects";
import { startIndexJob, type IndexJobOptions } from "../indexer/jobs";
import { checkoutDirFor, cloneRemote, fetchRemote, nameFromUrl } from "./remote";

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
export async function fetchProject(projectId: string, jobOpts: IndexJobOptions = {}): Promise<FetchResult> {
  const project = await getProject(projectId);
  if (!project.remote) throw new WorkbenchError("INVALID_INPUT", "This project was not added from a git remote, so there is nothing to fetch.");
  let result: { changed: boolean; head: string };
  try {
    result = await fetchRemote(project.rootPath, project.remote.branch);
  } catch (e) {
    const err = toWorkbenchError(e);
    await recordFetch(projectId, err.message);
    throw err;
  }
  await recordFetch(projectId, null);
  const job = result.changed ? await startIndexJob(projectId, jobOpts) : null;
  return { ...result, job };
}
