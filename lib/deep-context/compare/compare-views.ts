/**
 * Comparisons of two computed run views, kept while both views are alive: the paging requests
 * of one comparison reuse it. Runs where the views live (lib/deep-context/view-host).
 */
import type { RunView } from "../views";
import { compareRegistries, compareSideOf, type RunComparison } from "./compare";

// Views are replaced, never mutated, when a packet changes: a comparison of two view
// objects stays valid as long as both are alive.
const comparisons = new WeakMap<RunView, WeakMap<RunView, RunComparison>>();

export function compareViews(baseline: RunView, current: RunView): RunComparison {
  let byCurrent = comparisons.get(baseline);
  if (!byCurrent) comparisons.set(baseline, (byCurrent = new WeakMap()));
  let c = byCurrent.get(current);
  if (!c) byCurrent.set(current, (c = compareRegistries(compareSideOf(baseline), compareSideOf(current))));
  return c;
}

/** A run's iterations: state-log records and seat folders, ascending. */
export function iterationsOf(view: RunView): number[] {
  const runs = new Set(view.iterations.map((it) => it.run));
  for (const k of Object.keys(view.registry?.seatsByIteration ?? {})) runs.add(Number(k));
  return [...runs].filter((n) => Number.isInteger(n) && n >= 1).sort((a, b) => a - b);
}
