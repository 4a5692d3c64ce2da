import path from "node:path";
import { projectNotFound } from "../auth/access";
import type { Role } from "../auth/roles";
import { WorkbenchError, isWorkbenchError } from "../core/errors";
import { ProjectFs } from "../core/project-fs";
import type { ProjectDto } from "../db/dto";
import { findProjectByRoot, getProject } from "../db/repositories/projects";
import { indexProject } from "../indexer/index-project";
import { addProject } from "../projects/add-project";
import { mayUsePaths, requireRole, type McpCallerContext } from "./context";

// Ids are short tokens; anything with a separator or a leading dot can only be a path.
const looksLikeId = (ref: string) => ref.length <= 64 && !/[\\/]/.test(ref) && !ref.startsWith(".");

async function byId(ref: string): Promise<ProjectDto | null> {
  if (!looksLikeId(ref)) return null;
  try {
    return await getProject(ref);
  } catch (e) {
    if (isWorkbenchError(e) && e.code === "NOT_FOUND") return null;
    throw e;
  }
}

/** The folder a project reference names, or an error that names the field. */
async function folderOf(ref: string): Promise<ProjectFs> {
  try {
    return await ProjectFs.open(ref);
  } catch (e) {
    if (isWorkbenchError(e) && e.code === "NOT_FOUND") {
      const what = looksLikeId(ref) ? `no project has the id "${ref}" and there is no folder at ${path.resolve(ref)}` : `there is no folder at ${path.resolve(ref)}`;
      throw new WorkbenchError("NOT_FOUND", `project: ${what}.`);
    }
    if (isWorkbenchError(e)) throw new WorkbenchError(e.code, `project: ${e.message}`, e.details);
    throw e;
  }
}

// A client may call several tools at once; two index runs of one project must not overlap.
const indexing = new Map<string, Promise<unknown>>();

async function indexSerially(projectId: string): Promise<void> {
  const before = indexing.get(projectId) ?? Promise.resolve();
  const run = before.catch(() => undefined).then(() => indexProject(projectId));
  indexing.set(projectId, run);
  try {
    await run;
  } finally {
    if (indexing.get(projectId) === run) indexing.delete(projectId);
  }
}

/**
 * An indexed project from its id (read as the database has it) or its folder (registered
 * when new and re-indexed incrementally, as the CLI's `--project <path>` does).
 */
export async function indexedProject(ref: string): Promise<ProjectDto> {
  const known = await byId(ref);
  if (known) return known;
  const pfs = await folderOf(ref);
  const project = (await findProjectByRoot(pfs.root)) ?? (await addProject({ path: pfs.root }));
  await indexSerially(project.id);
  return project;
}

/** The folder of a project given by id or path, without indexing (the context-loader reads docs/ from disk). */
export async function projectFolder(ref: string): Promise<string> {
  const known = await byId(ref);
  if (known) return known.rootPath;
  return (await folderOf(ref)).root;
}

/**
 * A project the caller holds `need` on, by id, or by folder for callers who may read the server's
 * disk (local mode, instance admins): anyone else gets "No such project." for an id they cannot
 * see and for any path, exactly as the API answers.
 */
export async function projectFor(ctx: McpCallerContext, ref: string, need: Role): Promise<ProjectDto> {
  const known = await byId(ref);
  if (!known && !mayUsePaths(ctx)) throw projectNotFound();
  const project = known ?? (await indexedProject(ref));
  await requireRole(ctx, project.id, need);
  return project;
}

/** The folder of a project the caller holds `need` on (see projectFor), without indexing. */
export async function projectFolderFor(ctx: McpCallerContext, ref: string, need: Role): Promise<string> {
  const known = await byId(ref);
  if (known) {
    await requireRole(ctx, known.id, need);
    return known.rootPath;
  }
  if (!mayUsePaths(ctx)) throw projectNotFound();
  return projectFolder(ref);
}
