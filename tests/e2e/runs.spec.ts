import { expect, test } from "@playwright/test";
import { dbQuery, sampleDir, pageProblems } from "./helpers";

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
  const problems = pageProblems(page);
  await page.goto(`/projects/${projectId}/runs`);
  const table = page.getByRole("table", { name: "Runs" });
  await expect(table).toContainText(".opencode/specs/z_future/sqlite-to-turso/context");
  await expect(table).toContainText(".opencode/specs/z_future/sqlite-to-turso/research");
  await expect(table.getByRole("row", { name: /sqlite-to-turso\/context/ })).toContainText("STOP_BLOCKED");
  // The three seats of the sweeps, as on the run page (one definition of the run's executors).
  await expect(table.getByRole("row", { name: /sqlite-to-turso\/context/ })).toContainText("mimo-a, mimo-b, mimo-c");
  expect(problems).toEqual([]);
  const rows = dbQuery<{ loopType: string; iterations: number }>("SELECT loopType, iterations FROM DeepRun WHERE projectId = ? ORDER BY loopType", projectId);
  expect(rows).toEqual([
    { loopType: "context", iterations: 10 },
    { loopType: "research", iterations: 17 },
  ]);
});

test("a deep-context run shows its decision, replay, events, agreement and findings", async ({ page }) => {
  const problems = pageProblems(page);
  await page.goto(`/projects/${projectId}/runs`);
  await page.getByRole("link", { name: ".opencode/specs/z_future/sqlite-to-turso/context" }).click();
  await expect(page.getByRole("heading", { name: /Decision/ })).toContainText("STOP_BLOCKED");
  await expect(page.getByTestId("decision-provenance")).toContainText("Computed by the Workbench through #10");
  await expect(page.getByTestId("decision-provenance")).toContainText("The state log's last graph decision (#10): STOP_BLOCKED");
  const trace = page.getByRole("table", { name: "Convergence trace" });
  await expect(trace).toContainText("agreementRate");
  // Each gate says where its numbers come from, and its chart ends on the same numbers.
  await expect(trace.getByRole("columnheader", { name: "Computed through #10" })).toBeVisible();
  const slice = trace.getByRole("row", { name: /sliceCoverage/ });
  await expect(slice).toContainText("0.200");
  await expect(slice).toContainText("2 of 10 slices covered");
  await expect(slice).toContainText("1.000 #10");
  await expect(slice).toContainText("differs");
  const agreement = trace.getByRole("row", { name: /agreementRate/ });
  await expect(agreement).toContainText("0.182");
  await expect(agreement).toContainText("0.243 #10");
  await expect(trace.getByRole("row", { name: /reuseCatalogCoverage/ })).toHaveAttribute("data-differs", "false");
  await expect(page.getByTestId("signal-provenance")).toContainText("sliceCoverage, agreementRate, relevanceFloor differ");
  await expect(page.getByTestId("signal-provenance")).toContainText("iteration(s) 2, 4–10 of 10 have no findings in them");
  await expect(page.locator('figure[data-signal="sliceCoverage"]').getByTestId("chart-values")).toHaveText("log #10: 1.000 · ◆ computed #10: 0.200");
  await expect(page.locator('figure[data-signal="agreementRate"]').getByTestId("chart-values")).toHaveText("log #10: 0.243 · ◆ computed #10: 0.182");
  await expect(page.locator('figure[data-signal="reuseCatalogCoverage"]').getByTestId("chart-values")).toHaveText("log #10: 1.000 · ◆ computed #10: 1.000");
  await expect(page.getByTestId("run-executors")).toContainText("Executors (3): mimo-a: 10 sweep(s), 1 failed, no seat file in the packet; mimo-b");
  await expect(page.getByTestId("run-executors")).toContainText("mimo-c: 10 sweep(s), seat files for 1 iteration(s)");
  // The timeline in time order: iteration 1's graph_convergence (16:05:30) after iteration 2's sweep (16:04:53).
  const events = page.getByRole("list", { name: "Events" }).getByRole("listitem");
  await expect(events).toHaveCount(25);
  const order = (await events.allInnerTexts()).map((t) => t.replace(/\s+/g, " "));
  const sweep2 = order.findIndex((t) => /Sweep settled run 2\b/.test(t));
  const graph1 = order.findIndex((t) => /Graph convergence run 1\b/.test(t));
  expect(sweep2).toBeGreaterThan(0);
  expect(graph1).toBeGreaterThan(sweep2);
  await expect(page.getByRole("list", { name: "Loop replay" })).toContainText("maxIterations");
  await expect(page.getByRole("list", { name: "Events" })).toContainText("Blocked stop");
  await expect(page.getByRole("table", { name: "Agreement matrix" })).toContainText("mimo-c");
  const graph = page.getByTestId("coverage-graph");
  await expect(graph).toHaveAttribute("aria-label", /Coverage graph: \d+ nodes, \d+ edges/);
  // Laid out in a worker once it scrolls into view.
  await graph.scrollIntoViewIfNeeded();
  await expect(graph).toHaveAttribute("data-laid-out", "true");
  await expect(graph.locator("canvas").first()).toBeAttached();
  const explorer = page.getByTestId("findings-explorer");
  await expect(explorer).toHaveAttribute("data-hydrated", "true");
  await expect(explorer).toContainText("17 of 17 findings");
  await page.getByLabel("Kind").selectOption("dependency");
  await expect(explorer).toContainText("5 of 17 findings");
  await explorer.getByRole("row").nth(1).click();
  await expect(page.getByTestId("finding-drawer")).toContainText("Produced by");
  // The page only reads the packet: the state log is unchanged.
  const fs = await import("node:fs");
  const log = `${sampleDir()}/.opencode/specs/z_future/sqlite-to-turso/context/deep-context-state.jsonl`;
  expect(fs.readFileSync(log, "utf8").trim().split("\n")).toHaveLength(36);
  expect(problems).toEqual([]);
});

test("a deep-research run shows its iterations with their own stop signals", async ({ page }) => {
  const problems = pageProblems(page);
  await page.goto(`/projects/${projectId}/runs`);
  await page.getByRole("link", { name: ".opencode/specs/z_future/sqlite-to-turso/research" }).click();
  const table = page.getByRole("table", { name: "Iterations" });
  await expect(table.locator("tbody tr")).toHaveCount(17);
  await expect(page.getByText("Recorded stop:")).toContainText("converged");
  expect(problems).toEqual([]);
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
  const problems = pageProblems(page);
  await page.goto(`/projects/${projectId}/runs/${run.id}`);
  await expect(page.getByTestId("findings-explorer")).toHaveAttribute("data-hydrated", "true");
  await page.getByTestId("findings-explorer").getByRole("row").nth(1).click();
  // The sample vendors the files the run cites: the evidence is found, its line shown.
  await expect(page.getByTestId("evidence-check")).toContainText("verified");
  await expect(page.getByTestId("evidence-check").locator("pre")).toBeVisible();
  // Every finding of the sample run: its cited file is in the sample and still names the symbol.
  const all = (await (await page.request.get(`/api/v1/projects/${projectId}/runs/${run.id}/findings?limit=100`)).json()) as { rows: { path: string; symbol: string; evidence: string }[] };
  expect(all.rows).toHaveLength(17);
  for (const f of all.rows) {
    const q = new URLSearchParams({ path: f.path, symbol: f.symbol, evidence: f.evidence });
    const check = ((await (await page.request.get(`/api/v1/projects/${projectId}/evidence?${q}`)).json()) as { check: { status: string } }).check;
    expect(`${f.evidence} ${check.status}`).toBe(`${f.evidence} verified`);
  }
  expect(problems).toEqual([]);
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
  const line = {
    type: "iteration",
    run: 11,
    mode: "context",
    status: "evidence",
    focus: "Slice 11: live update check",
    findingsCount: 3,
    newAgreementEligible: 1,
    agreementEligible: 30,
    sliceCoverage: 1,
    reuseCatalogCoverage: 1,
    agreementRate: 0.6,
    relevanceFloor: 1,
    dependencyCompleteness: 1,
    contradictions: 0,
    seatsSucceeded: 3,
    durationMs: 1000,
    timestamp: "2026-06-10T18:00:00Z",
  };
  fs.appendFileSync(log, JSON.stringify(line) + "\n");
  await expect(replay).toContainText("#11", { timeout: 5_000 });
  await expect(page.getByTestId("live-status")).toContainText("updated");
});

test("a change made before the live stream connects still reaches the page", async ({ page }) => {
  const runs = (await (await page.request.get(`/api/v1/projects/${projectId}/runs`)).json()) as { runs: { id: string; loopType: string }[] };
  const run = runs.runs.find((r) => r.loopType === "context")!;
  // Hold the stream until the packet has changed: the watcher then starts after the change,
  // so no change event announces it; only the version in its ready event can.
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  await page.route(`**/runs/${run.id}/stream`, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/projects/${projectId}/runs/${run.id}`);
  const replay = page.getByRole("list", { name: "Loop replay" });
  await expect(replay).toBeVisible();
  await expect(replay).not.toContainText("#12");
  const fs = await import("node:fs");
  const log = `${sampleDir()}/.opencode/specs/z_future/sqlite-to-turso/context/deep-context-state.jsonl`;
  fs.appendFileSync(log, JSON.stringify({ type: "iteration", run: 12, mode: "context", status: "evidence", focus: "Slice 12: before the stream", timestamp: "2026-06-10T19:00:00Z" }) + "\n");
  release();
  await expect(page.getByTestId("live-status")).toContainText("Live");
  await expect(replay).toContainText("#12", { timeout: 5_000 });
});

test("findings are fetched a window at a time and filters are in a shareable URL", async ({ page }) => {
  const runs = (await (await page.request.get(`/api/v1/projects/${projectId}/runs`)).json()) as { runs: { id: string; loopType: string }[] };
  const run = runs.runs.find((r) => r.loopType === "context")!;
  const findingsRequests: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes(`/runs/${run.id}/findings`)) findingsRequests.push(r.url());
  });
  await page.goto(`/projects/${projectId}/runs/${run.id}`);
  const explorer = page.getByTestId("findings-explorer");
  await expect(explorer).toHaveAttribute("data-hydrated", "true");
  await expect(explorer).toContainText("17 of 17 findings");
  // The first window comes with the page: no request for the default view.
  expect(findingsRequests).toHaveLength(0);
  await page.getByLabel("Kind").selectOption("dependency");
  await expect(explorer).toContainText(/\d+ of 17 findings/);
  await expect.poll(() => findingsRequests.length).toBe(1);
  expect(findingsRequests[0]).toContain("kind=dependency");
  await expect(page).toHaveURL(/f\.kind=dependency/);
  const filtered = await explorer.getByTestId("findings-count").textContent();

  // The same URL opens the same filtered view.
  const shared = page.url();
  const other = await page.context().newPage();
  await other.goto(shared);
  await expect(other.getByTestId("findings-explorer")).toHaveAttribute("data-hydrated", "true");
  await expect(other.getByTestId("findings-count")).toHaveText(filtered!);
  await expect(other.getByLabel("Kind")).toHaveValue("dependency");
  await other.close();

  const api = (await (await page.request.get(`/api/v1/projects/${projectId}/runs/${run.id}/findings?sort=relevance&limit=5`)).json()) as { matched: number; rows: { relevance: number }[] };
  expect(api.matched).toBe(17);
  expect(api.rows).toHaveLength(5);
  expect(api.rows.map((r) => r.relevance)).toEqual([...api.rows.map((r) => r.relevance)].sort((a, b) => b - a));
  const bad = await page.request.get(`/api/v1/projects/${projectId}/runs/${run.id}/findings?limit=100000`);
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/^limit:/);
});

test("the signal variant can be switched and the choice is in the URL", async ({ page }) => {
  const runs = (await (await page.request.get(`/api/v1/projects/${projectId}/runs`)).json()) as { runs: { id: string; loopType: string }[] };
  const run = runs.runs.find((r) => r.loopType === "context")!;
  await page.goto(`/projects/${projectId}/runs/${run.id}`);
  const nav = page.getByRole("navigation", { name: "Signal variant" });
  await expect(nav.getByRole("link", { name: "Documented" })).toHaveAttribute("aria-current", "page");
  await nav.getByRole("link", { name: "Stored" }).click();
  await expect(page).toHaveURL(/variant=stored/);
  await expect(nav.getByRole("link", { name: "Stored" })).toHaveAttribute("aria-current", "page");
  const stored = (await (await page.request.get(`/api/v1/projects/${projectId}/runs/${run.id}?variant=stored`)).json()) as { view: { variant: string; payload: { data: { variant: string } } } };
  expect(stored.view.variant).toBe("stored");
  expect(stored.view.payload.data.variant).toBe("stored");
});

test("a deep-research run charts its stop-vote signals", async ({ page }) => {
  const runs = (await (await page.request.get(`/api/v1/projects/${projectId}/runs`)).json()) as { runs: { id: string; loopType: string }[] };
  await page.goto(`/projects/${projectId}/runs/${runs.runs.find((r) => r.loopType === "research")!.id}`);
  const chart = page.locator("figure", { hasText: "Stop-vote signals per iteration" });
  await expect(chart.getByRole("application")).toBeVisible();
  await expect(chart).toContainText("question coverage");
});

test("a broken packet (torn log, failed seat, unknown kind, no findings) still shows, with each fault named", async ({ page, request }) => {
  const fs = await import("node:fs");
  const dir = `${sampleDir()}/.opencode/specs/z_edge/broken/context`;
  fs.mkdirSync(`${dir}/seats/iter-001`, { recursive: true });
  fs.writeFileSync(
    `${dir}/deep-context-state.jsonl`,
    [
      JSON.stringify({ type: "config", scope: "edge packet", loopType: "context", maxIterations: 5, convergenceThreshold: 0.05, relevanceGate: 0.55, agreementMin: 2, createdAt: "2026-06-10T10:00:00Z" }),
      JSON.stringify({ type: "iteration", run: 1, mode: "context", status: "evidence", focus: "Slice 1", findingsCount: 0, seatsSucceeded: 0, timestamp: "2026-06-10T10:05:00Z" }),
      '{"type":"iteration","run":2,"mo',
    ].join("\n"),
  );
  fs.writeFileSync(`${dir}/seats/iter-001/a.json`, '{"findings": [');
  fs.writeFileSync(`${dir}/seats/iter-001/b.json`, JSON.stringify([{ kind: "mystery", path: "src/a.ts", symbol: "a" }]));
  const reindex = await request.post(`/api/v1/projects/${projectId}/index`, { data: {} });
  expect(reindex.ok()).toBe(true);
  await expect
    .poll(async () => ((await (await request.get(`/api/v1/projects/${projectId}/runs`)).json()) as { runs: { relPath: string }[] }).runs.map((r) => r.relPath), { timeout: 30_000 })
    .toContain(".opencode/specs/z_edge/broken/context");
  await page.goto(`/projects/${projectId}/runs`);
  await page.getByRole("link", { name: ".opencode/specs/z_edge/broken/context" }).click();
  await expect(page.getByRole("heading", { name: /Decision/ })).toContainText("STOP_BLOCKED");
  const trace = page.getByRole("table", { name: "Convergence trace" });
  await expect(trace.getByRole("row", { name: /agreementRate/ })).toContainText("vacuous");
  await expect(trace.getByRole("row", { name: /sliceCoverage/ })).toContainText("blocks");
  await expect(page.getByText("Coverage graph: 1 node, 0 edges, derived from the merged findings")).toBeVisible();
  await expect(page.getByTestId("findings-explorer")).toContainText("0 of 0 findings");
  const warnings = page.getByRole("list", { name: "Run warnings" });
  await expect(warnings).toContainText("deep-context-state.jsonl line 3");
  await expect(warnings).toContainText("seats/iter-001/a.json: unreadable seat file");
  await expect(warnings).toContainText('seats/iter-001/b.json: unknown kind "mystery"');
  // Read-only: the torn tail is reported, not repaired on disk.
  expect(fs.readFileSync(`${dir}/deep-context-state.jsonl`, "utf8").endsWith('"mo')).toBe(true);
});
