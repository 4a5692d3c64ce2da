import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkbenchError } from "../../lib/core/errors";
import { listRuns, type RunRowDto } from "../../lib/db/repositories/runs";
import { compareQuerySchema } from "../../lib/deep-context/compare";
import { compareChoices, compareRun } from "../../lib/deep-context/service";
import { startIndexJob, waitForJob } from "../../lib/indexer/jobs";
import { addProject } from "../../lib/projects/add-project";
import { COMPARE_EXPECTED, COMPARE_SPEC, writeComparePacket } from "../helpers/compare-packet";
import { copySampleProject, removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

async function indexed(root: string): Promise<{ projectId: string; runs: RunRowDto[] }> {
  const project = await addProject({ path: root });
  await startIndexJob(project.id);
  await waitForJob(project.id);
  return { projectId: project.id, runs: await listRuns(project.id) };
}

const request = (q: Record<string, string>) => compareQuerySchema.parse(q);

async function rejection(p: Promise<unknown>): Promise<WorkbenchError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(WorkbenchError);
  return e as WorkbenchError;
}

describe("run comparison service", () => {
  let projectId = "";
  let ledger: RunRowDto;
  let turso: RunRowDto;
  let research: RunRowDto;
  let other: { projectId: string; runs: RunRowDto[] };

  beforeAll(async () => {
    const root = copySampleProject();
    writeComparePacket(root);
    const p = await indexed(root);
    projectId = p.projectId;
    ledger = p.runs.find((r) => r.relPath === `${COMPARE_SPEC}/context`)!;
    turso = p.runs.find((r) => r.loopType === "context" && r.relPath.includes("sqlite-to-turso"))!;
    research = p.runs.find((r) => r.loopType === "research")!;
    other = await indexed(copySampleProject());
  });

  it("offers the project's other deep-context runs and this run's iterations", async () => {
    const choices = await compareChoices(projectId, ledger.id);
    expect(choices.runs.map((r) => r.id)).toEqual([turso.id]);
    expect(choices.iterations).toEqual([1, 2]);
  });

  it("compares a run with one of its iterations", async () => {
    const res = await compareRun(projectId, ledger.id, request({ base: "iter:1" }));
    expect(res.baseline).toMatchObject({ ref: "iter:1", kind: "iteration", iteration: 1 });
    expect(res.counts).toMatchObject({ added: 1, dropped: 0, changed: 3, unchanged: 1, contradictionsNew: 1 });
    expect(res.lists.added!.rows.map((d) => d.symbol)).toEqual(COMPARE_EXPECTED.added);
    expect(res.unchanged).toBe(false);
    const last = await compareRun(projectId, ledger.id, request({ base: "iter:2", changes: "1" }));
    expect(last.unchanged).toBe(true);
    expect(last.signals.rows).toEqual([]);
  });

  it("compares two runs of the project and pages one list", async () => {
    const res = await compareRun(projectId, ledger.id, request({ base: `run:${turso.id}`, section: "dropped", offset: "10", limit: "5" }));
    expect(res.baseline).toMatchObject({ kind: "run", iteration: null });
    expect(res.baseline.run.id).toBe(turso.id);
    expect(res.counts).toMatchObject({ added: 5, dropped: 17, unchanged: 0 });
    expect(Object.keys(res.lists)).toEqual(["dropped"]);
    expect(res.lists.dropped).toMatchObject({ matched: 17, offset: 10 });
    expect(res.lists.dropped!.rows).toHaveLength(5);
  });

  it("a missing iteration or run is NOT_FOUND, and another project's run is answered the same way", async () => {
    const noIter = await rejection(compareRun(projectId, ledger.id, request({ base: "iter:9" })));
    expect(noIter.code).toBe("NOT_FOUND");
    expect(noIter.message).toBe("This run has no iteration 9: it has iterations 1–2.");
    const missing = await rejection(compareRun(projectId, ledger.id, request({ base: "run:nope" })));
    expect([missing.code, missing.message]).toEqual(["NOT_FOUND", "No baseline run nope in this project."]);
    const foreignId = other.runs.find((r) => r.loopType === "context")!.id;
    const foreign = await rejection(compareRun(projectId, ledger.id, request({ base: `run:${foreignId}` })));
    expect([foreign.code, foreign.message]).toEqual(["NOT_FOUND", `No baseline run ${foreignId} in this project.`]);
  });

  it("a run without findings cannot be either side", async () => {
    const base = await rejection(compareRun(projectId, ledger.id, request({ base: `run:${research.id}` })));
    expect(base.code).toBe("INVALID_INPUT");
    expect(base.message).toMatch(/deep-research run: it has no findings registry/);
    expect((await rejection(compareRun(projectId, research.id, request({ base: "iter:1" })))).code).toBe("INVALID_INPUT");
  });
});
