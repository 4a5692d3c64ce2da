import path from "node:path";
import { z } from "zod";
import { ProjectFs } from "../core/project-fs";
import type { ProjectDto } from "../db/dto";
import { upsertProject } from "../db/repositories/projects";
import { addRemoteProject } from "./remote-projects";
import { addProjectInput } from "./schemas";

export { addProjectInput };

/**
 * Registers a folder, or a clone of a git remote, as a project (idempotent by real path,
 * or by remote and branch). Indexing is started separately.
 */
export async function addProject(input: z.input<typeof addProjectInput>): Promise<ProjectDto> {
  const { path: p, url, branch, name } = addProjectInput.parse(input);
  if (url !== undefined) return addRemoteProject({ url, branch, name });
  const pfs = await ProjectFs.open(p ?? "");
  return upsertProject(pfs.root, name || path.basename(pfs.root));
}
