import path from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_ROOT, makeTempDir } from "./project-builder";

export interface SampleRepo {
  targetDir: string;
  created: boolean;
  head?: string;
  branches?: string[];
  /** Short hashes by history step id (see SAMPLE_HISTORY in scripts/sample-project.mjs). */
  commits?: Record<string, string>;
}

type CreateSample = (targetDir: string, opts?: { force?: boolean }) => Promise<SampleRepo>;

/** The sample project with its deterministic git history, in a fresh temp dir. */
export async function buildSampleRepo(): Promise<SampleRepo & { commits: Record<string, string> }> {
  const mod = (await import(pathToFileURL(path.join(REPO_ROOT, "scripts", "sample-project.mjs")).href)) as { createSampleProject: CreateSample };
  const target = path.join(makeTempDir("wb-gitsample-"), "sample");
  const res = await mod.createSampleProject(target);
  if (!res.commits) throw new Error("sample project was not created");
  return { ...res, commits: res.commits };
}
