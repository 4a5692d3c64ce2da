import { z } from "zod";
import { ProjectFs } from "../core/project-fs";
import { TOKENIZER_NAME } from "../core/tokens";
import { getProject } from "../db/repositories/projects";
import { analyzeKb, type KbHealth } from "./health";
import { projectKbSource } from "./kb-source";
import { buildPack, type PackResult } from "./walk";

export const loaderInput = z.object({
  prompt: z.string().max(20_000, "The prompt is over 20,000 characters.").describe("the user's verbatim prompt; passed through unchanged"),
});

export interface LoaderResponse extends PackResult {
  tokenizer: string;
}

/** The context-loader over a folder on disk (the CLI) or an indexed project (API, UI). */
export async function loaderForPath(rootPath: string, prompt: string): Promise<LoaderResponse> {
  const pfs = await ProjectFs.open(rootPath);
  return { ...(await buildPack(projectKbSource(pfs), prompt)), tokenizer: TOKENIZER_NAME };
}

export async function loaderForProject(projectId: string, input: z.input<typeof loaderInput>): Promise<LoaderResponse> {
  const { prompt } = loaderInput.parse(input);
  const project = await getProject(projectId);
  return loaderForPath(project.rootPath, prompt);
}

export async function kbHealthForProject(projectId: string): Promise<KbHealth> {
  const project = await getProject(projectId);
  return analyzeKb(await ProjectFs.open(project.rootPath));
}
