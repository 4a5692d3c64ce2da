import { z } from "zod";
import { ProjectFs } from "../core/project-fs";
import { getProject } from "../db/repositories/projects";
import { analyzeKb, type KbHealth } from "./health";
import { loaderForPath, type LoaderResponse } from "./loader";

export { loaderForPath, type LoaderResponse };

export const loaderInput = z.object({
  prompt: z.string().max(20_000, "The prompt is over 20,000 characters.").describe("the user's verbatim prompt; passed through unchanged"),
});

export async function loaderForProject(projectId: string, input: z.input<typeof loaderInput>): Promise<LoaderResponse> {
  const { prompt } = loaderInput.parse(input);
  const project = await getProject(projectId);
  return loaderForPath(project.rootPath, prompt);
}

export async function kbHealthForProject(projectId: string): Promise<KbHealth> {
  const project = await getProject(projectId);
  return analyzeKb(await ProjectFs.open(project.rootPath));
}
