/**
 * Asks the view process (view-host) for both sides of a run comparison, windowed (compare/). A baseline is another deep-context run of the same
 * project, or this run as it stood after one of its iterations.
 */
import { WorkbenchError } from "../core/errors";
import { getProjectHead } from "../db/repositories/projects";
import { getRun, listRuns, type RunRowDto } from "../db/repositories/runs";
import { formatBaselineRef, type BaselineRef, type CompareRequest, type CompareWindow } from "./compare";
import { askRunViews } from "./view-host";

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

async function contextRun(projectId: string, runId: string): Promise<{ run: RunRowDto; rootPath: string }> {
  const project = await getProjectHead(projectId);
  const run = await getRun(projectId, runId);
  if (run.loopType !== "context") throw new WorkbenchError("INVALID_INPUT", `This is a deep-${run.loopType} run: only deep-context runs have findings to compare.`);
  return { run, rootPath: project.rootPath };
}

/** What the baseline picker offers for a run. */
export async function compareChoices(projectId: string, runId: string): Promise<CompareChoices> {
  const { run, rootPath } = await contextRun(projectId, runId);
  const runs = (await listRuns(projectId)).filter((r) => r.loopType === "context" && r.id !== run.id);
  return { run, runs, iterations: await askRunViews<"iterations">({ op: "iterations", rootPath, relPath: run.relPath }) };
}

/** The run against its baseline: counts, signals, contradictions and one window of each list. */
export async function compareRun(projectId: string, runId: string, req: CompareRequest): Promise<RunCompareResult> {
  const { run, rootPath } = await contextRun(projectId, runId);
  const ref = req.baseline;
  let baseline: CompareBaseline;
  let baseRelPath: string | null = null;
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
    baseRelPath = baseRun.relPath;
    baseline = { ref: formatBaselineRef(ref), kind: "run", run: baseRun, iteration: null };
  } else {
    baseline = { ref: formatBaselineRef(ref), kind: "iteration", run, iteration: ref.iteration };
  }
  const window = await askRunViews<"compare">({
    op: "compare",
    rootPath,
    relPath: run.relPath,
    baseline: baseRelPath !== null ? { relPath: baseRelPath } : { iteration: baseline.iteration! },
    req,
  });
  return { run, baseline, ...window };
}
