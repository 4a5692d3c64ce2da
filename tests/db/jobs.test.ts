import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { getJob } from "../../lib/db/repositories/jobs";
import { listRuns } from "../../lib/db/repositories/runs";
import { runForProject, warmRunViews } from "../../lib/deep-context/service";
import { startIndexJob, waitForJob } from "../../lib/indexer/jobs";
import { addProject } from "../../lib/projects/add-project";
import { copySampleProject, makeTempDir, removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

describe("index jobs", () => {
  it("run afterSuccess once the job has succeeded, and warm the run views", async () => {
    const root = copySampleProject();
    const project = await addProject({ path: root });
    const seen: string[] = [];
    let jobId = "";
    const job = await startIndexJob(project.id, {
      afterSuccess: async () => {
        seen.push((await getJob(jobId)).status);
        await warmRunViews(project.id);
      },
    });
    jobId = job.id;
    await waitForJob(project.id);
    await expect.poll(() => seen).toEqual(["succeeded"]);
    const context = (await listRuns(project.id)).find((r) => r.loopType === "context")!;
    const { view } = await runForProject(project.id, context.id);
    expect(view!.findingsFacets.total).toBe(17);
    expect(view!.firstFindings.rows).toHaveLength(17);
  });

  it("never run afterSuccess when indexing fails", async () => {
    const root = makeTempDir();
    const project = await addProject({ path: root });
    fs.rmSync(root, { recursive: true, force: true });
    let called = false;
    const job = await startIndexJob(project.id, {
      afterSuccess: async () => {
        called = true;
      },
    });
    await waitForJob(project.id);
    expect((await getJob(job.id)).status).toBe("failed");
    expect(called).toBe(false);
  });
});
