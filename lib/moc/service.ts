import { z } from "zod";
import { ProjectFs } from "../core/project-fs";
import { getProject } from "../db/repositories/projects";
import { analyzeKb, type KbHealth } from "./health";
import { loaderForPath, type LoaderResponse } from "./loader";
import { loaderInput } from "./schemas";

export { loaderForPath, type LoaderResponse };

export { loaderInput };

export async function loaderForProject(projectId: string, input: z.input<typeof loaderInput>): Promise<LoaderResponse> {
  const { prompt } = loaderInput.parse(input);
  const project = await getProject(projectId);
  return loaderForPath(project.rootPath, prompt);
}

export async function kbHealthForProject(projectId: string): Promise<KbHealth> {
  const project = await getProject(projectId);
  return analyzeKb(await ProjectFs.open(project.rootPath));
}
