import path from "node:path";
import { z } from "zod";
import { ProjectFs } from "../core/project-fs";
import type { ProjectDto } from "../db/dto";
import { upsertProject } from "../db/repositories/projects";

export const addProjectInput = z.object({
  path: z.string().trim().min(1, "Give the project's folder path.").max(4096).describe("absolute or relative path of a project folder on the server"),
  name: z.string().trim().max(200).optional().describe("display name; the folder name when absent"),
});

/** Registers a folder as a project (idempotent by real path). Indexing is started separately. */
export async function addProject(input: z.input<typeof addProjectInput>): Promise<ProjectDto> {
  const { path: p, name } = addProjectInput.parse(input);
  const pfs = await ProjectFs.open(p);
  return upsertProject(pfs.root, name || path.basename(pfs.root));
}
