import { expect, test } from "@playwright/test";
import { dbQuery, sampleDir } from "./helpers";

test.describe.configure({ mode: "serial" });

let projectId = "";

test.beforeAll(async ({ request }) => {
  const res = await request.post("/api/v1/projects", { data: { path: sampleDir() } });
  expect(res.status()).toBe(201);
  projectId = ((await res.json()) as { project: { id: string } }).project.id;
  // Indexing runs in the background: wait for the job rather than for time.
  await expect
    .poll(async () => ((await (await request.get(`/api/v1/projects/${projectId}`)).json()) as { project: { latestJob: { status: string } | null } }).project.latestJob?.status, { timeout: 30_000 })
    .toBe("succeeded");
});

test("the runs page lists the project's deep-loop packets", async ({ page }) => {
  await page.goto(`/projects/${projectId}/runs`);
  const table = page.getByRole("table", { name: "Runs" });
  await expect(table).toContainText(".opencode/specs/z_future/sqlite-to-turso/context");
  await expect(table).toContainText(".opencode/specs/z_future/sqlite-to-turso/research");
  await expect(table.getByRole("row", { name: /sqlite-to-turso\/context/ })).toContainText("STOP_BLOCKED");
  const rows = dbQuery<{ loopType: string; iterations: number }>("SELECT loopType, iterations FROM DeepRun WHERE projectId = ? ORDER BY loopType", projectId);
  expect(rows).toEqual([
    { loopType: "context", iterations: 10 },
    { loopType: "research", iterations: 17 },
  ]);
});

test("a deep-context run shows its decision, replay, events, agreement and findings", async ({ page }) => {
  await page.goto(`/projects/${projectId}/runs`);
  await page.getByRole("link", { name: ".opencode/specs/z_future/sqlite-to-turso/context" }).click();
  await expect(page.getByRole("heading", { name: /Decision/ })).toContainText("STOP_BLOCKED");
  await expect(page.getByRole("table", { name: "Convergence trace" })).toContainText("agreementRate");
  await expect(page.getByRole("list", { name: "Loop replay" })).toContainText("maxIterations");
  await expect(page.getByRole("list", { name: "Events" })).toContainText("Blocked stop");
  await expect(page.getByRole("table", { name: "Agreement matrix" })).toContainText("mimo-c");
  const graph = page.getByTestId("coverage-graph");
  await expect(graph).toHaveAttribute("aria-label", /Coverage graph: \d+ nodes, \d+ edges/);
  await expect(graph.locator("canvas").first()).toBeAttached();
  const explorer = page.getByTestId("findings-explorer");
  await expect(explorer).toContainText("17 of 17 findings");
  await page.getByLabel("Kind").selectOption("dependency");
  await expect(explorer).toContainText("of 17 findings");
  await explorer.getByRole("row").nth(1).click();
  await expect(page.getByTestId("finding-drawer")).toContainText("Produced by");
  // The page only reads the packet: the state log is unchanged.
  const fs = await import("node:fs");
  const log = `${sampleDir()}/.opencode/specs/z_future/sqlite-to-turso/context/deep-context-state.jsonl`;
  expect(fs.readFileSync(log, "utf8").trim().split("\n")).toHaveLength(36);
});

test("a deep-research run shows its iterations with their own stop signals", async ({ page }) => {
  await page.goto(`/projects/${projectId}/runs`);
  await page.getByRole("link", { name: ".opencode/specs/z_future/sqlite-to-turso/research" }).click();
  const table = page.getByRole("table", { name: "Iterations" });
  await expect(table.locator("tbody tr")).toHaveCount(17);
  await expect(page.getByText("Recorded stop:")).toContainText("converged");
});

test("the Context Report shows its REUSE catalog first, checked against the repository", async ({ page }) => {
  const fs = await import("node:fs");
  const report = [
    "# Context Report: sessions",
    "",
    "## 1. REUSE Catalog (highest value)",
    "",
    "| id | symbol (file:line) | signature | reuse | confidence | agree | freshness | notes |",
    "|---|---|---|---|---|---|---|---|",
    "| reuse-001 | `SessionService` (src/auth/SessionService.ts:22) | class | extend | 0.9 | 3/3 | verified | |",
    "| reuse-002 | `LegacyStore` (src/auth/LegacyStore.ts:1) | class | wrap | 0.6 | 2/3 | verified | |",
    "",
    "## 2. Integration Points",
    "",
    "- **[HARD]** router — mounts the API",
    "",
  ].join("\n");
  fs.writeFileSync(`${sampleDir()}/.opencode/specs/z_future/sqlite-to-turso/context/context-report.md`, report);
  const runs = (await (await page.request.get(`/api/v1/projects/${projectId}/runs`)).json()) as { runs: { id: string; loopType: string }[] };
  await page.goto(`/projects/${projectId}/runs/${runs.runs.find((r) => r.loopType === "context")!.id}`);
  const catalog = page.getByRole("table", { name: "REUSE catalog" });
  await expect(catalog.getByRole("row", { name: /reuse-001/ })).toContainText("verified");
  await expect(catalog.getByRole("row", { name: /reuse-002/ })).toContainText("missing");
  await expect(page.getByTestId("context-report")).toContainText("The rest of the report");
});

test("the finding drawer checks its evidence against the repository", async ({ page }) => {
  const runs = (await (await page.request.get(`/api/v1/projects/${projectId}/runs`)).json()) as { runs: { id: string; loopType: string }[] };
  const run = runs.runs.find((r) => r.loopType === "context")!;
  await page.goto(`/projects/${projectId}/runs/${run.id}`);
  await page.getByTestId("findings-explorer").getByRole("row").nth(1).click();
  // The sample project does not contain the packet's source tree: the evidence is missing.
  await expect(page.getByTestId("evidence-check")).toContainText("missing");
  const api = await page.request.get(`/api/v1/projects/${projectId}/evidence?path=README.md&symbol=Acme&evidence=README.md:1`);
  expect(((await api.json()) as { check: { status: string } }).check.status).toBe("verified");
  const outside = await page.request.get(`/api/v1/projects/${projectId}/evidence?path=../../etc/passwd&symbol=root&evidence=../../etc/passwd:1`);
  expect(((await outside.json()) as { check: { status: string; reason: string } }).check).toMatchObject({ status: "missing", reason: "the path points outside the project" });
});

test("the run page updates by itself when the state log grows", async ({ page }) => {
  const runs = (await (await page.request.get(`/api/v1/projects/${projectId}/runs`)).json()) as { runs: { id: string; loopType: string }[] };
  const run = runs.runs.find((r) => r.loopType === "context")!;
  await page.goto(`/projects/${projectId}/runs/${run.id}`);
  await expect(page.getByTestId("live-status")).toContainText("Live");
  const replay = page.getByRole("list", { name: "Loop replay" });
  await expect(replay).not.toContainText("#11");
  const fs = await import("node:fs");
  const log = `${sampleDir()}/.opencode/specs/z_future/sqlite-to-turso/context/deep-context-state.jsonl`;
  const line = { type: "iteration", run: 11, mode: "context", status: "evidence", focus: "Slice 11: live update check", findingsCount: 3, newAgreementEligible: 1, agreementEligible: 30, sliceCoverage: 1, reuseCatalogCoverage: 1, agreementRate: 0.6, relevanceFloor: 1, dependencyCompleteness: 1, contradictions: 0, seatsSucceeded: 3, durationMs: 1000, timestamp: "2026-06-10T18:00:00Z" };
  fs.appendFileSync(log, JSON.stringify(line) + "\n");
  await expect(replay).toContainText("#11", { timeout: 5_000 });
  await expect(page.getByTestId("live-status")).toContainText("updated");
});
