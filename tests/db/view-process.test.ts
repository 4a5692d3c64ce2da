/**
 * The server's run views are computed in a process of their own (lib/deep-context/view-host):
 * a large run's view costs seconds of CPU that must not stall the server's other requests,
 * and a run that ends that process costs one answer, not the server.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkbenchError } from "../../lib/core/errors";
import { listRuns, type RunRowDto } from "../../lib/db/repositories/runs";
import { runFindings, runForProject, runGraphDrawing, warmRunViews } from "../../lib/deep-context/service";
import { findingsQuerySchema } from "../../lib/deep-context/views";
import { answerLocally, askRunViews, viewProcess } from "../../lib/deep-context/view-host";
import { startIndexJob, waitForJob } from "../../lib/indexer/jobs";
import { addProject } from "../../lib/projects/add-project";
import { copySampleProject, removeTempDirs } from "../helpers/project-builder";

afterAll(() => {
  viewProcess().stop();
  removeTempDirs();
});

/**
 * The keys of the views this process computed itself (view-cache.ts keeps them on globalThis;
 * other test files of this worker may have filled it, e.g. an index's search sync in-process).
 */
const viewsHere = () => new Set((globalThis as { __workbenchRunViews?: { keys(): Iterable<string> } }).__workbenchRunViews?.keys() ?? []);

describe("run views in their own process", () => {
  let projectId = "";
  let root = "";
  let turso: RunRowDto;

  beforeAll(async () => {
    root = copySampleProject();
    const project = await addProject({ path: root });
    projectId = project.id;
    await startIndexJob(projectId);
    await waitForJob(projectId);
    turso = (await listRuns(projectId)).find((r) => r.loopType === "context" && r.relPath.includes("sqlite-to-turso"))!;
    expect(turso).toBeDefined();
  });

  it("answers the page, findings and graph from the view process, with what this process would compute", async () => {
    delete process.env.WORKBENCH_RUN_VIEWS;
    const before = viewsHere();
    const page = await runForProject(projectId, turso.id);
    const pid = viewProcess().pid;
    expect(pid).toBeGreaterThan(0);
    expect(pid).not.toBe(process.pid);
    const findings = await runFindings(projectId, turso.id, findingsQuerySchema.parse({ limit: "5" }));
    const drawing = await runGraphDrawing(projectId, turso.id);
    await warmRunViews(projectId);
    // Nothing was computed here: the views live over there.
    expect([...viewsHere()].filter((k) => !before.has(k))).toEqual([]);
    expect(viewProcess().pid).toBe(pid);

    const local = await answerLocally<"page">({ op: "page", rootPath: root, relPath: turso.relPath, variant: "documented", windows: {} });
    expect(page.view).toEqual(local.view);
    expect(page.version).toBe(local.version);
    expect(findings).toEqual(await answerLocally<"findings">({ op: "findings", rootPath: root, relPath: turso.relPath, query: findingsQuerySchema.parse({ limit: "5" }) }));
    expect(findings.rows.length).toBeGreaterThan(0);
    expect(drawing).toEqual(await answerLocally<"drawing">({ op: "drawing", rootPath: root, relPath: turso.relPath }));
  });

  it("computes a run's convergence (the MCP tool's answer) over there too", async () => {
    const folder = path.join(root, turso.relPath);
    const here = await answerLocally<"convergence">({ op: "convergence", folder, rootPath: root, variant: "documented" });
    const there = await askRunViews<"convergence">({ op: "convergence", folder, rootPath: root, variant: "documented" });
    expect(there).toEqual(here);
    expect(there.graph_decision).toMatch(/^(CONTINUE|STOP_ALLOWED|STOP_BLOCKED)$/);
  });

  it("passes the view's own errors through with their code", async () => {
    const gone = `${turso.relPath}-gone`;
    const e = await viewProcess()
      .ask<"page">({ op: "page", rootPath: root, relPath: gone, variant: "documented", windows: {} })
      .catch((err: unknown) => err);
    expect(e).toBeInstanceOf(WorkbenchError);
    expect((e as WorkbenchError).code).toBe("NOT_FOUND");
  });

  it("makes the error again as the caller's WorkbenchError (the process handle may come from another route's bundle)", async () => {
    /** What another bundle's copy of lib/core/errors.ts throws: same name and fields, another class. */
    class OtherBundlesError extends Error {
      readonly code = "NOT_FOUND";
      constructor(message: string) {
        super(message);
        this.name = "WorkbenchError";
      }
    }
    const shared = globalThis as { __workbenchViewProcess?: unknown };
    const real = shared.__workbenchViewProcess;
    shared.__workbenchViewProcess = { ask: () => Promise.reject(new OtherBundlesError("This run has no iteration 99.")) };
    try {
      const e = await askRunViews<"iterations">({ op: "iterations", rootPath: root, relPath: turso.relPath }).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(WorkbenchError);
      expect(e).toMatchObject({ code: "NOT_FOUND", message: "This run has no iteration 99." });
    } finally {
      shared.__workbenchViewProcess = real;
    }
  });

  it("fails the questions in flight when the view process dies, and starts a new one for the next", async () => {
    const vp = viewProcess();
    await vp.ask<"drawing">({ op: "drawing", rootPath: root, relPath: turso.relPath });
    const first = vp.pid!;
    const inFlight = vp.ask<"page">({ op: "page", rootPath: root, relPath: turso.relPath, variant: "stored", windows: {} });
    process.kill(first, "SIGKILL");
    const e = await inFlight.catch((err: unknown) => err);
    expect(e).toBeInstanceOf(WorkbenchError);
    expect((e as WorkbenchError).code).toBe("INTERNAL");
    expect((e as WorkbenchError).message).toMatch(/ended its process/);
    const again = await runForProject(projectId, turso.id);
    expect(again.view?.findingsFacets).toBeDefined();
    expect(vp.pid).not.toBe(first);
  });
});
