import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { generateProject } from "../../bench/generate-project";
import { dbQuery, pageProblems } from "./helpers";

// A project of its own, large enough that re-reading it takes seconds, removed afterwards (the
// specs after this one count the projects they see).
let projectDir = "";
let projectId = "";

/** Every table an index writes, with the project's rows (ids included): "as before" means the same rows. */
const TABLES = ["SourceFile", "IndexWarning", "TopicSource", "Topic", "Document", "GitBranch", "GitCommit", "DeepRun", "SearchEntry", "SearchSource", "IndexFreshness"];
function storedRows(id: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const t of TABLES)
    out[t] = dbQuery<Record<string, unknown>>(`SELECT * FROM "${t}" WHERE "projectId" = ?`, id)
      .map((r) => JSON.stringify(r))
      .sort();
  out.Project = dbQuery<Record<string, unknown>>(`SELECT * FROM "Project" WHERE "id" = ?`, id).map((r) => JSON.stringify(r));
  return out;
}

/** Every file's modification time moved on: a re-index re-reads them all. */
function touchAll(dir: string, when: Date): void {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) touchAll(p, when);
    else fs.utimesSync(p, when, when);
  }
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(300_000);
  projectDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "wb-e2e-index-job-")), "big-project");
  generateProject(projectDir, { sessions: 1500, documents: 2000, tickets: 50, git: false });
  const res = await request.post("/api/v1/projects", { data: { path: projectDir } });
  expect(res.status()).toBe(201);
  projectId = ((await res.json()) as { project: { id: string } }).project.id;
  await expect
    .poll(async () => ((await (await request.get(`/api/v1/projects/${projectId}`)).json()) as { project: { latestJob: { status: string } | null } }).project.latestJob?.status, {
      timeout: 240_000,
      intervals: [500],
    })
    .toBe("succeeded");
});

test.afterAll(async ({ request }) => {
  if (projectId) expect((await request.delete(`/api/v1/projects/${projectId}`)).ok()).toBe(true);
  if (projectDir) fs.rmSync(path.dirname(projectDir), { recursive: true, force: true });
});

test("a running re-index is cancelled with its button, and the project stays exactly as it was", async ({ page }) => {
  test.setTimeout(240_000);
  const problems = pageProblems(page);
  // What the re-index would store: every file re-read, and every product document rewritten.
  const product = path.join(projectDir, "knowledge", "product");
  for (const f of fs.readdirSync(product, { recursive: true })) {
    if (String(f).endsWith(".md")) fs.appendFileSync(path.join(product, String(f)), "\n\nA paragraph the cancelled job must not store.\n");
  }
  touchAll(projectDir, new Date(Date.now() + 60_000));
  const before = storedRows(projectId);
  expect(before.Document!.length).toBeGreaterThan(2000);

  await page.goto(`/projects/${projectId}`);
  const panel = page.getByTestId("index-job");
  await expect(panel.getByRole("status")).toContainText("succeeded");
  await panel.getByRole("button", { name: "Re-index" }).click();
  await expect(panel.getByRole("button", { name: "Indexing…" })).toBeDisabled();
  // The longest phase, re-reading thousands of sessions (tests/db/index-job-process.test.ts
  // cancels later, once the job has written its staging area).
  await expect(panel.getByRole("status")).toContainText("Reading work, brainstorms, proposals, refactoring", { timeout: 120_000 });
  await panel.getByRole("button", { name: "Cancel" }).click();
  await expect(panel.getByRole("status")).toContainText("cancelled");
  await expect(panel.getByRole("status")).toContainText("the project is as it was before the job");
  await expect(panel.getByRole("button", { name: "Re-index" })).toBeEnabled();
  await expect(panel.getByRole("button", { name: "Cancel" })).toHaveCount(0);

  const [job] = dbQuery<{ status: string }>(`SELECT "status" FROM "IndexJob" WHERE "projectId" = ? ORDER BY "createdAt" DESC LIMIT 1`, projectId);
  expect(job!.status).toBe("cancelled");
  // A cancelled job can no longer be applied (its success is written only while it runs).
  expect(storedRows(projectId)).toEqual(before);
  expect(problems).toEqual([]);
});
