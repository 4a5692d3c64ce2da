import path from "node:path";
import { z } from "zod";
import { ProjectFs } from "../core/project-fs";
import type { ProjectDto } from "../db/dto";
import { upsertProject } from "../db/repositories/projects";
import { branchName, remoteUrl } from "./remote";
import { addRemoteProject } from "./remote-projects";

export const addProjectInput = z
  .object({
    path: z.string().trim().min(1, "Give the project's folder path.").max(4096).optional().describe("absolute or relative path of a project folder on the server"),
    url: remoteUrl.optional().describe("git remote to clone into the data directory instead of a folder: https://, ssh://, user@host:path, file:// or an absolute path"),
    branch: branchName.optional().describe("branch of the remote to track; its default branch when absent"),
    name: z.string().trim().max(200).optional().describe("display name; the folder or repository name when absent"),
  })
  .superRefine((v, ctx) => {
    if (v.path === undefined && v.url === undefined) ctx.addIssue({ code: "custom", path: ["path"], message: "Give the project's folder path or a git URL." });
    if (v.path !== undefined && v.url !== undefined) ctx.addIssue({ code: "custom", path: ["url"], message: "Give either a folder path or a git URL, not both." });
    if (v.branch !== undefined && v.url === undefined) ctx.addIssue({ code: "custom", path: ["branch"], message: "A branch goes with a git URL." });
  });

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
