/**
 * Loads both sides of a run comparison through the cached run views (views/view-cache.ts) and
 * windows the result (compare.ts). A baseline is another deep-context run of the same
 * project, or this run as it stood after one of its iterations.
 */
import { WorkbenchError } from "../../core/errors";
import { getProjectHead } from "../../db/repositories/projects";
import { getRun, listRuns, type RunRowDto } from "../../db/repositories/runs";
import { compareRegistries, compareSideOf, compareWindow, formatBaselineRef, type BaselineRef, type CompareRequest, type CompareWindow, type RunComparison } from "./compare";
import { type RunView, cachedRunView } from "../views";

export interface CompareBaseline {
  /** `run:<id>` or `iter:<N>`, as in the URL. */
  ref: string;
  kind: BaselineRef["kind"];
  /** The baseline's run (the current run itself for an iteration baseline). */
  run: RunRowDto;
  iteration: number | null;
}

export interface RunCompareResult extends CompareWindow {
  run: RunRowDto;
  baseline: CompareBaseline;
}

export interface CompareChoices {
  run: RunRowDto;
  /** The project's other runs that have findings (deep-context runs). */
  runs: RunRowDto[];
  /** This run's iterations (state-log records and seat folders), ascending. */
  iterations: number[];
}

// Views are replaced, never mutated, when a packet changes: a comparison of two view
// objects stays valid as long as both are alive, and the paging requests reuse it.
const comparisons = new WeakMap<RunView, WeakMap<RunView, RunComparison>>();

function compareViews(baseline: RunView, current: RunView): RunComparison {
  let byCurrent = comparisons.get(baseline);
  if (!byCurrent) comparisons.set(baseline, (byCurrent = new WeakMap()));
  let c = byCurrent.get(current);
  if (!c) byCurrent.set(current, (c = compareRegistries(compareSideOf(baseline), compareSideOf(current))));
  return c;
}

function iterationsOf(view: RunView): number[] {
  const runs = new Set(view.iterations.map((it) => it.run));
  for (const k of Object.keys(view.registry?.seatsByIteration ?? {})) runs.add(Number(k));
  return [...runs].filter((n) => Number.isInteger(n) && n >= 1).sort((a, b) => a - b);
}

async function contextRunView(projectId: string, runId: string): Promise<{ run: RunRowDto; rootPath: string; view: RunView }> {
  const project = await getProjectHead(projectId);
  const run = await getRun(projectId, runId);
  if (run.loopType !== "context") throw new WorkbenchError("INVALID_INPUT", `This is a deep-${run.loopType} run: only deep-context runs have findings to compare.`);
  return { run, rootPath: project.rootPath, view: await cachedRunView(project.rootPath, run.relPath, "documented") };
}

/** What the baseline picker offers for a run. */
export async function compareChoices(projectId: string, runId: string): Promise<CompareChoices> {
  const { run, view } = await contextRunView(projectId, runId);
  const runs = (await listRuns(projectId)).filter((r) => r.loopType === "context" && r.id !== run.id);
  return { run, runs, iterations: iterationsOf(view) };
}

/** The run against its baseline: counts, signals, contradictions and one window of each list. */
export async function compareRun(projectId: string, runId: string, req: CompareRequest): Promise<RunCompareResult> {
  const { run, rootPath, view } = await contextRunView(projectId, runId);
  const ref = req.baseline;
  let baseline: CompareBaseline;
  let baseView: RunView;
  if (ref.kind === "run") {
    let baseRun: RunRowDto;
    try {
      baseRun = await getRun(projectId, ref.runId);
    } catch (e) {
      // A run of another project is answered like a missing one: its existence is not ours to tell.
      if (e instanceof WorkbenchError && e.code === "NOT_FOUND") throw new WorkbenchError("NOT_FOUND", `No baseline run ${ref.runId} in this project.`);
      throw e;
    }
    if (baseRun.loopType !== "context") {
      throw new WorkbenchError("INVALID_INPUT", `Baseline ${baseRun.relPath} is a deep-${baseRun.loopType} run: it has no findings registry to compare.`);
    }
    baseView = await cachedRunView(rootPath, baseRun.relPath, "documented");
    baseline = { ref: formatBaselineRef(ref), kind: "run", run: baseRun, iteration: null };
  } else {
    const iterations = iterationsOf(view);
    if (!iterations.includes(ref.iteration)) {
      const range = iterations.length ? `it has iterations ${iterations[0]}–${iterations[iterations.length - 1]}` : "it has no iterations yet";
      throw new WorkbenchError("NOT_FOUND", `This run has no iteration ${ref.iteration}: ${range}.`);
    }
    baseView = await cachedRunView(rootPath, run.relPath, "documented", ref.iteration);
    baseline = { ref: formatBaselineRef(ref), kind: "iteration", run, iteration: ref.iteration };
  }
  return { run, baseline, ...compareWindow(compareViews(baseView, view), req) };
}
