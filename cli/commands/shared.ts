import path from "node:path";
import { ProjectFs } from "../../lib/core/project-fs";
import type { IndexStats, JobPhase } from "../../lib/db/dto";
import { findProjectByRoot } from "../../lib/db/repositories/projects";
import { unchangedStats } from "../../lib/indexer/unchanged";
import { stderr } from "../output";

/** The indexer and project registration, loaded only when something is to be read or added. */
async function indexing() {
  const [{ indexProject }, { addProject }] = await Promise.all([import("../../lib/indexer/index-project"), import("../../lib/projects/add-project")]);
  return { indexProject, addProject };
}

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
  const { indexProject, addProject } = await indexing();
  const known = await findProjectByRoot(checkoutDirFor(url, branch));
  const project = await addProject({ url, ...(branch ? { branch } : {}) });
  const head = known ? (await fetchProject(project.id, { startJob: false })).head : null;
  const stats = await indexProject(project.id, stderrProgress(!opts.quiet));
  return { projectId: project.id, stats, head: head ?? "" };
}

/**
 * The project registered for a folder, indexed (incrementally) so what follows reads current
 * data. When nothing the last index looked at changed, the indexer is not even loaded.
 */
export async function ensureIndexed(projectPath: string, opts: { quiet?: boolean } = {}): Promise<{ projectId: string; stats: IndexStats }> {
  const started = Date.now();
  const pfs = await ProjectFs.open(path.resolve(projectPath));
  const existing = await findProjectByRoot(pfs.root);
  const unchanged = existing ? await unchangedStats(existing.id) : null;
  if (existing && unchanged) {
    if (!opts.quiet) stderr.line("[index] unchanged");
    return { projectId: existing.id, stats: { ...unchanged, durationMs: Date.now() - started } };
  }
  const { indexProject, addProject } = await indexing();
  const project = existing ?? (await addProject({ path: pfs.root }));
  // Already asked: the indexer need not compare the record again.
  const stats = await indexProject(project.id, stderrProgress(!opts.quiet), { compared: true });
  return { projectId: project.id, stats };
}
