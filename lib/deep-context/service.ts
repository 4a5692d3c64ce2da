import { getProject } from "../db/repositories/projects";
import { getRun, type RunRowDto } from "../db/repositories/runs";
import { loadRunView, type RunView } from "./run-view";

/** A run of an indexed project, with its view when it is a deep-context packet. */
export async function runForProject(projectId: string, runId: string): Promise<{ run: RunRowDto; view: RunView | null }> {
  const project = await getProject(projectId);
  const run = await getRun(projectId, runId);
  const view = run.loopType === "context" ? await loadRunView(project.rootPath, run.relPath) : null;
  return { run, view };
}
