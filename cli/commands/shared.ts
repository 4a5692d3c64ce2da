import path from "node:path";
import { ProjectFs } from "../../lib/core/project-fs";
import type { IndexStats, JobPhase } from "../../lib/db/dto";
import { findProjectByRoot } from "../../lib/db/repositories/projects";
import { indexProject } from "../../lib/indexer/index-project";
import { addProject } from "../../lib/projects/add-project";
import { stderr } from "../output";

/** Progress lines on stderr, at most one per phase change or every 500 ms. */
export function stderrProgress(enabled = true): (phase: JobPhase, done: number, total: number) => void {
  let lastPhase = "";
  let last = 0;
  return (phase, done, total) => {
    if (!enabled) return;
    const now = Date.now();
    if (phase === lastPhase && now - last < 500) return;
    lastPhase = phase;
    last = now;
    stderr.line(`[index] ${phase}${total ? ` ${done}/${total}` : ""}`);
  };
}

/**
 * The project cloned from a git remote (cloned now if new, fetched if known), indexed
 * incrementally: only what the fetch changed is re-read.
 */
export async function ensureRemoteIndexed(url: string, branch: string | undefined, opts: { quiet?: boolean } = {}): Promise<{ projectId: string; stats: IndexStats; head: string }> {
  const { checkoutDirFor } = await import("../../lib/projects/remote");
  const { fetchProject } = await import("../../lib/projects/remote-projects");
  const known = await findProjectByRoot(checkoutDirFor(url, branch));
  const project = await addProject({ url, ...(branch ? { branch } : {}) });
  const head = known ? (await fetchProject(project.id, { startJob: false })).head : null;
  const stats = await indexProject(project.id, stderrProgress(!opts.quiet));
  return { projectId: project.id, stats, head: head ?? "" };
}

/** The project registered for a folder, indexed (incrementally) so what follows reads current data. */
export async function ensureIndexed(projectPath: string, opts: { quiet?: boolean } = {}): Promise<{ projectId: string; stats: IndexStats }> {
  const pfs = await ProjectFs.open(path.resolve(projectPath));
  const existing = await findProjectByRoot(pfs.root);
  const project = existing ?? (await addProject({ path: pfs.root }));
  const stats = await indexProject(project.id, stderrProgress(!opts.quiet));
  return { projectId: project.id, stats };
}
