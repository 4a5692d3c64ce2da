import { getProject } from "../db/repositories/projects";
import { getRun, type RunRowDto } from "../db/repositories/runs";
import { loadRunView, type RunView } from "./run-view";
import { loadSiblingTimeline } from "./sibling-view";
import type { ResearchTimeline } from "./convergence/research-timeline";
import type { ReviewTimeline } from "./convergence/review-timeline";

/** A run of an indexed project, with its view when it is a deep-context packet. */
export async function runForProject(projectId: string, runId: string): Promise<{ run: RunRowDto; view: RunView | null; timeline: ResearchTimeline | ReviewTimeline | null }> {
  const project = await getProject(projectId);
  const run = await getRun(projectId, runId);
  if (run.loopType === "context") return { run, view: await loadRunView(project.rootPath, run.relPath), timeline: null };
  const loop = run.loopType === "review" ? "review" : "research";
  return { run, view: null, timeline: await loadSiblingTimeline(project.rootPath, run.relPath, loop) };
}
