/**
 * The run page's windows of a computed run view: what `GET …/runs/:runId` and the page get,
 * small whatever the size of the run (the findings, the graph and the lists that grow with the
 * state log come one window at a time).
 */
import type { ContextEventRecord, ContextIterationRecord, ReplayResult } from "../convergence";
import type { FindingsRegistry } from "../types";
import { type FindingsFacets, type FindingsPage, findingsFacets, findingsQuerySchema, queryFindings } from "./findings-query";
import type { RunView } from "./run-view";
import { EVENTS_PER_WINDOW, ITERATIONS_PER_WINDOW, LISTED_WARNINGS, type ListWindow, type RunWindowQuery, sliceOf, windowOf, withEventCounts } from "./run-window";
import { type SignalPoint, signalPoints } from "./signal-provenance";

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
