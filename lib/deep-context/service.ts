import { createHash } from "node:crypto";
import path from "node:path";
import { LRUCache } from "lru-cache";
import { ProjectFs } from "../core/project-fs";
import { getProject } from "../db/repositories/projects";
import { getRun, listRuns, type RunRowDto } from "../db/repositories/runs";
import type { SignalVariant } from "./convergence/signals";
import { findingsFacets, queryFindings, findingsQuerySchema, type FindingsFacets, type FindingsPage, type FindingsQuery } from "./findings-query";
import { packetFingerprint, packetVersion } from "./run-cache";
import { loadRunView, type RunView } from "./run-view";
import { loadSiblingTimeline } from "./sibling-view";
import type { ResearchTimeline } from "./convergence/research-timeline";
import type { ReviewTimeline } from "./convergence/review-timeline";

/**
 * What the run page and `GET …/runs/:runId` get: the view without the findings (plus their
 * first window) and without the graph drawing (`…/graph`, loaded when it scrolls into view).
 */
export interface RunPageView extends Omit<RunView, "findings" | "drawing"> {
  findingsFacets: FindingsFacets;
  firstFindings: FindingsPage;
}

export interface RunResult {
  run: RunRowDto;
  /** The packet's version (see packetVersion) when the result was read; the live stream sends the current one. */
  version: string;
  view: RunPageView | null;
  timeline: ResearchTimeline | ReviewTimeline | null;
}

// A computed view of a large packet is tens of MB: keep only a few. On globalThis because
// Next bundles each route separately, and the index route warms what the page reads.
const globalViews = globalThis as { __workbenchRunViews?: LRUCache<string, Promise<RunView>> };
const views = (globalViews.__workbenchRunViews ??= new LRUCache<string, Promise<RunView>>({ max: 4 }));

/**
 * The run view, computed once per packet state and variant (see run-cache.ts); with
 * `throughIteration`, the run as it stood after that iteration (a comparison baseline).
 */
export async function cachedRunView(rootPath: string, relPath: string, variant: SignalVariant, throughIteration?: number): Promise<RunView> {
  const pfs = await ProjectFs.open(rootPath);
  const dir = pfs.resolve(relPath);
  // The spec folder holds the packet; its files (config, report, seats) make the key.
  const key = `${dir}\u0001${variant}\u0001${throughIteration ?? ""}\u0001${packetFingerprint(path.dirname(dir))}`;
  let view = views.get(key);
  if (!view) {
    view = loadRunView(rootPath, relPath, variant, { throughIteration });
    views.set(key, view);
    view.catch(() => views.delete(key));
  }
  return view;
}

async function contextRun(projectId: string, runId: string): Promise<{ run: RunRowDto; rootPath: string }> {
  const project = await getProject(projectId);
  return { run: await getRun(projectId, runId), rootPath: project.rootPath };
}

/** A run of an indexed project, with its view when it is a deep-context packet. */
export async function runForProject(projectId: string, runId: string, variant: SignalVariant = "documented"): Promise<RunResult> {
  const { run, rootPath } = await contextRun(projectId, runId);
  // Taken before reading: a change while the view is computed makes the versions differ.
  const version = packetVersion((await ProjectFs.open(rootPath)).resolve(run.relPath));
  if (run.loopType !== "context") {
    const loop = run.loopType === "review" ? "review" : "research";
    return { run, version, view: null, timeline: await loadSiblingTimeline(rootPath, run.relPath, loop) };
  }
  const { findings, drawing: _drawing, ...rest } = await cachedRunView(rootPath, run.relPath, variant);
  return { run, version, view: { ...rest, findingsFacets: findingsFacets(findings), firstFindings: queryFindings(findings, findingsQuerySchema.parse({})) }, timeline: null };
}

/** One filtered, sorted window of a deep-context run's findings. */
export async function runFindings(projectId: string, runId: string, query: FindingsQuery): Promise<FindingsPage> {
  const { run, rootPath } = await contextRun(projectId, runId);
  if (run.loopType !== "context") return { matched: 0, offset: query.offset, rows: [] };
  const view = await cachedRunView(rootPath, run.relPath, "documented");
  return queryFindings(view.findings, query);
}

/**
 * Computes the views of a project's deep-context runs ahead of the first visit (after an
 * index job), newest first and one at a time, so opening a large run does not wait for it.
 */
export async function warmRunViews(projectId: string, max = 2): Promise<void> {
  const project = await getProject(projectId);
  const runs = (await listRuns(projectId)).filter((r) => r.loopType === "context").slice(0, max);
  for (const run of runs) await cachedRunView(project.rootPath, run.relPath, "documented");
}

/** The coverage graph of a deep-context run, as the page draws it. */
export async function runGraphDrawing(projectId: string, runId: string): Promise<RunView["drawing"]> {
  const { run, rootPath } = await contextRun(projectId, runId);
  if (run.loopType !== "context") return { nodes: [], edges: [], truncated: false };
  return (await cachedRunView(rootPath, run.relPath, "documented")).drawing;
}

/**
 * The findings of a project's deep-context runs for the search index, skipping runs whose
 * packet has not changed since `seen(runId)` was recorded.
 */
export async function changedRunFindings(
  projectId: string,
  seen: (runId: string) => Promise<string | null>,
): Promise<{ runIds: string[]; changed: { run: RunRowDto; fingerprint: string; findings: RunView["findings"] }[] }> {
  const project = await getProject(projectId);
  const pfs = await ProjectFs.open(project.rootPath);
  const runs = (await listRuns(projectId)).filter((r) => r.loopType === "context");
  const changed: { run: RunRowDto; fingerprint: string; findings: RunView["findings"] }[] = [];
  for (const run of runs) {
    // The same files cachedRunView keys on, hashed (the raw form holds NUL separators).
    const fingerprint = createHash("sha256").update(packetFingerprint(path.dirname(pfs.resolve(run.relPath)))).digest("hex");
    if ((await seen(run.id)) === fingerprint) continue;
    try {
      const view = await cachedRunView(project.rootPath, run.relPath, "documented");
      changed.push({ run, fingerprint, findings: view.findings });
    } catch (e) {
      // One unreadable run must not keep the others out of search; it is tried again next time.
      console.error("[workbench] findings of run for search", run.relPath, e instanceof Error ? e.message : e);
    }
  }
  return { runIds: runs.map((r) => r.id), changed };
}
