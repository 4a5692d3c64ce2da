import { createHash } from "node:crypto";
import path from "node:path";
import { ProjectFs } from "../core/project-fs";
import type { ProjectHeadDto } from "../db/dto";
import { getProjectHead } from "../db/repositories/projects";
import { getRun, listRuns, type RunRowDto } from "../db/repositories/runs";
import type { ResearchTimeline, ReviewTimeline, SignalVariant } from "./convergence";
import { packetFingerprint, packetVersion } from "./run-cache";
import { askRunViews } from "./view-host";
import {
  ITERATIONS_PER_WINDOW,
  LISTED_WARNINGS,
  type FindingsPage,
  type FindingsQuery,
  type ListWindow,
  type RunView,
  type RunPageView,
  type RunWindowQuery,
  cachedRunView,
  loadSiblingTimeline,
  sliceOf,
  windowOf,
  withEventCounts,
} from "./views";

export { type RunPageView, pageViewOf } from "./views";
export { type CompareBaseline, type CompareChoices, type RunCompareResult, compareChoices, compareRun } from "./compare-service";

export interface RunResult {
  run: RunRowDto;
  /** The packet's version (see packetVersion) when the result was read; the live stream sends the current one. */
  version: string;
  view: RunPageView | null;
  /** A deep-research or deep-review run's timeline: one window of its iterations, each with at most EVENT_NAMES_PER_ENTRY event names. */
  timeline: ((ResearchTimeline | ReviewTimeline) & { entryWindow: ListWindow; unattachedEventCount: number }) | null;
}

/** `project`: its id, or its head when the caller (a page) has read it already. */
async function contextRun(project: string | ProjectHeadDto, runId: string): Promise<{ run: RunRowDto; rootPath: string }> {
  const head = typeof project === "string" ? await getProjectHead(project) : project;
  return { run: await getRun(head.id, runId), rootPath: head.rootPath };
}

/** A run of an indexed project, with its view when it is a deep-context packet: one window of each list that grows with the log. */
export async function runForProject(project: string | ProjectHeadDto, runId: string, variant: SignalVariant = "documented", windows: RunWindowQuery = {}): Promise<RunResult> {
  const { run, rootPath } = await contextRun(project, runId);
  if (run.loopType !== "context") {
    // Taken before reading: a change while the timeline is read makes the versions differ.
    const version = packetVersion(await ProjectFs.open(rootPath), run.relPath);
    const loop = run.loopType === "review" ? "review" : "research";
    const timeline = await loadSiblingTimeline(rootPath, run.relPath, loop);
    const entryWindow = windowOf(timeline.entries.length, windows.iterations, ITERATIONS_PER_WINDOW);
    const entries = withEventCounts(sliceOf<ResearchTimeline["entries"][number] | ReviewTimeline["entries"][number]>(timeline.entries, entryWindow));
    const windowed = {
      ...timeline,
      entries,
      entryWindow,
      unattachedEvents: timeline.unattachedEvents.slice(0, LISTED_WARNINGS),
      unattachedEventCount: timeline.unattachedEvents.length,
    } as RunResult["timeline"];
    return { run, version, view: null, timeline: windowed };
  }
  const { view, version } = await askRunViews<"page">({ op: "page", rootPath, relPath: run.relPath, variant, windows });
  return { run, version, view, timeline: null };
}

/** One filtered, sorted window of a deep-context run's findings. */
export async function runFindings(projectId: string, runId: string, query: FindingsQuery): Promise<FindingsPage> {
  const { run, rootPath } = await contextRun(projectId, runId);
  if (run.loopType !== "context") return { matched: 0, offset: query.offset, rows: [] };
  return askRunViews<"findings">({ op: "findings", rootPath, relPath: run.relPath, query });
}

/**
 * Computes the views of a project's deep-context runs ahead of the first visit (after an
 * index job), newest first and one at a time, so opening a large run does not wait for it.
 */
export async function warmRunViews(projectId: string, max = 2): Promise<void> {
  const project = await getProjectHead(projectId);
  const runs = (await listRuns(projectId)).filter((r) => r.loopType === "context").slice(0, max);
  if (runs.length > 0) await askRunViews<"warm">({ op: "warm", rootPath: project.rootPath, relPaths: runs.map((r) => r.relPath) });
}

/** The coverage graph of a deep-context run, as the page draws it. */
export async function runGraphDrawing(projectId: string, runId: string): Promise<RunView["drawing"]> {
  const { run, rootPath } = await contextRun(projectId, runId);
  if (run.loopType !== "context") return { nodes: [], edges: [], truncated: false };
  return askRunViews<"drawing">({ op: "drawing", rootPath, relPath: run.relPath });
}

/**
 * The findings of a project's deep-context runs for the search index, skipping runs whose
 * packet has not changed since `seen(runId)` was recorded.
 */
export async function changedRunFindings(
  projectId: string,
  seen: (runId: string) => Promise<string | null>,
): Promise<{ runIds: string[]; changed: { run: RunRowDto; fingerprint: string; findings: RunView["findings"] }[] }> {
  const project = await getProjectHead(projectId);
  const pfs = await ProjectFs.open(project.rootPath);
  const runs = (await listRuns(projectId)).filter((r) => r.loopType === "context");
  const changed: { run: RunRowDto; fingerprint: string; findings: RunView["findings"] }[] = [];
  for (const run of runs) {
    // The same files cachedRunView keys on, hashed (the raw form holds NUL separators).
    const fingerprint = createHash("sha256")
      .update(packetFingerprint(pfs, path.posix.dirname(run.relPath)))
      .digest("hex");
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

/** The project's deep-loop runs, newest first, for the run list. */
export { listRuns } from "../db/repositories/runs";
export { getRun } from "../db/repositories/runs";
