import { createHash } from "node:crypto";
import path from "node:path";
import { ProjectFs } from "../core/project-fs";
import type { ProjectHeadDto } from "../db/dto";
import { getProjectHead } from "../db/repositories/projects";
import { getRun, listRuns, type RunRowDto } from "../db/repositories/runs";
import type { ContextEventRecord, ContextIterationRecord, ReplayResult, ResearchTimeline, ReviewTimeline, SignalVariant } from "./convergence";
import { packetFingerprint, packetVersion } from "./run-cache";
import type { FindingsRegistry } from "./types";
import {
  EVENTS_PER_WINDOW,
  ITERATIONS_PER_WINDOW,
  LISTED_WARNINGS,
  type FindingsFacets,
  type FindingsPage,
  type FindingsQuery,
  type ListWindow,
  type RunView,
  type RunWindowQuery,
  type SignalPoint,
  cachedRunView,
  cachedRunViewAndVersion,
  findingsFacets,
  findingsQuerySchema,
  loadSiblingTimeline,
  queryFindings,
  signalPoints,
  sliceOf,
  windowOf,
  withEventCounts,
} from "./views";

/**
 * What the run page and `GET …/runs/:runId` get: the view without the findings (plus their
 * first window) and without the graph drawing (`…/graph`, loaded when it scrolls into view),
 * and one window of each list that grows with the state log, with its totals.
 */
export interface RunPageView extends Omit<RunView, "findings" | "drawing" | "events" | "iterations" | "replay" | "warnings" | "registry"> {
  findingsFacets: FindingsFacets;
  firstFindings: FindingsPage;
  events: ContextEventRecord[];
  eventWindow: ListWindow;
  iterations: ContextIterationRecord[];
  iterationWindow: ListWindow;
  /** The charts' points of the iteration window: logged, iteration-record and computed values (see signal-provenance.ts). */
  signalPoints: SignalPoint[];
  /** The replay with the entries of the iteration window (by position) and the first divergences. */
  replay: (Omit<ReplayResult, "entries" | "divergences"> & { entries: (ReplayResult["entries"][number] & { eventCount: number })[]; entryWindow: ListWindow; divergences: string[]; divergenceCount: number }) | null;
  /** The registry without its buckets; its corruption and seat warnings are the first LISTED_WARNINGS (the metrics count them all). */
  registry: (Omit<FindingsRegistry, "reuseCandidates" | "integrationPoints" | "conventions" | "dependencies" | "gaps" | "lowConfidence"> & { corruptionWarningCount: number; seatValidationWarningCount: number }) | null;
  warnings: string[];
  warningCount: number;
}

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

// The facets and the first window of the findings depend on the view alone; a view is computed
// once per packet state, so these are too (not once per request: they count and sort every finding).
const firstFindingsByView = new WeakMap<RunView, Pick<RunPageView, "findingsFacets" | "firstFindings">>();

function firstFindingsOf(view: RunView): Pick<RunPageView, "findingsFacets" | "firstFindings"> {
  let first = firstFindingsByView.get(view);
  if (!first) {
    first = { findingsFacets: findingsFacets(view.findings), firstFindings: queryFindings(view.findings, findingsQuerySchema.parse({})) };
    firstFindingsByView.set(view, first);
  }
  return first;
}

/** The page's windows of a computed view (see RunPageView). */
export function pageViewOf(full: RunView, windows: RunWindowQuery = {}): RunPageView {
  const { findings: _findings, drawing: _drawing, events, iterations, replay, warnings, registry, ...rest } = full;
  const eventWindow = windowOf(events.length, windows.events, EVENTS_PER_WINDOW);
  const iterationWindow = windowOf(iterations.length, windows.iterations, ITERATIONS_PER_WINDOW);
  const shownIterations = sliceOf(iterations, iterationWindow);
  const points = signalPoints(shownIterations, events, rest.provenance);
  let pageReplay: RunPageView["replay"] = null;
  if (replay) {
    const entryWindow = windowOf(replay.entries.length, windows.iterations, ITERATIONS_PER_WINDOW);
    pageReplay = { ...replay, entries: withEventCounts(sliceOf(replay.entries, entryWindow)), entryWindow, divergences: replay.divergences.slice(0, LISTED_WARNINGS), divergenceCount: replay.divergences.length };
  }
  return {
    ...rest,
    ...firstFindingsOf(full),
    events: sliceOf(events, eventWindow),
    eventWindow,
    iterations: shownIterations,
    iterationWindow,
    signalPoints: points,
    replay: pageReplay,
    registry: registry
      ? {
          ...registry,
          corruptionWarnings: registry.corruptionWarnings.slice(0, LISTED_WARNINGS),
          corruptionWarningCount: registry.corruptionWarnings.length,
          seatValidationWarnings: registry.seatValidationWarnings.slice(0, LISTED_WARNINGS),
          seatValidationWarningCount: registry.seatValidationWarnings.length,
        }
      : null,
    warnings: warnings.slice(0, LISTED_WARNINGS),
    warningCount: warnings.length,
  };
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
  // The version comes from the walk that keys the view, before it is computed: a change while
  // it is computed makes the versions differ.
  const { view, version } = await cachedRunViewAndVersion(rootPath, run.relPath, variant);
  return { run, version, view: pageViewOf(await view, windows), timeline: null };
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
  const project = await getProjectHead(projectId);
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
