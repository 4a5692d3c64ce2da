import { ProjectFs } from "../core/project-fs";
import { TOKENIZER_NAME } from "../core/tokens";
import { projectKbSource } from "./kb-source";
import { buildPack, type PackResult } from "./walk";

/**
 * The context-loader over a folder on disk, without the database or the request schema
 * (./service.ts adds those for indexed projects): `workbench loader` loads only this.
 */
export interface LoaderResponse extends PackResult {
  tokenizer: string;
}

/** The context-loader over a folder on disk (the CLI) or an indexed project's folder (API, UI, via ./service). */
export async function loaderForPath(rootPath: string, prompt: string): Promise<LoaderResponse> {
  const pfs = await ProjectFs.open(rootPath);
  return { ...(await buildPack(projectKbSource(pfs), prompt)), tokenizer: TOKENIZER_NAME };
}
