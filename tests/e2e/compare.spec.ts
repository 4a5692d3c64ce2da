import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { COMPARE_SPEC, writeComparePacket } from "../helpers/compare-packet";

test.describe.configure({ mode: "serial" });

let projectId = "";
let ledgerId = "";
let tursoId = "";
// A project of its own, removed afterwards: the specs after this one (foundation, runs) count
// the sample project's packets and start from an empty dashboard.
let projectDir = "";

/** The number in one tile of the comparison summary. */
const tile = (page: Page, label: string) =>
  page
    .getByLabel("Comparison summary")
    .locator("div")
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator("dd")
    .first();

type Runs = { runs: { id: string; relPath: string; loopType: string }[] };

test.beforeAll(async ({ request }) => {
  projectDir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-e2e-compare-"));
  const real = ".opencode/specs/z_future/sqlite-to-turso/context";
  fs.cpSync(path.resolve("examples/sample-project", real), path.join(projectDir, real), { recursive: true });
  writeComparePacket(projectDir);
  const res = await request.post("/api/v1/projects", { data: { path: projectDir } });
  expect(res.status()).toBe(201);
  projectId = ((await res.json()) as { project: { id: string } }).project.id;
  await expect
    .poll(async () => ((await (await request.get(`/api/v1/projects/${projectId}`)).json()) as { project: { latestJob: { status: string } | null } }).project.latestJob?.status, { timeout: 30_000 })
    .toBe("succeeded");
  const { runs } = (await (await request.get(`/api/v1/projects/${projectId}/runs`)).json()) as Runs;
  ledgerId = runs.find((r) => r.relPath === `${COMPARE_SPEC}/context`)!.id;
  tursoId = runs.find((r) => r.relPath === real)!.id;
});

test.afterAll(async ({ request }) => {
  expect((await request.delete(`/api/v1/projects/${projectId}`)).ok()).toBe(true);
  fs.rmSync(projectDir, { recursive: true, force: true });
});

test("a run compared with an earlier iteration: what was added, what changed, and a shareable URL", async ({ page, context }) => {
  await page.goto(`/projects/${projectId}/runs/${ledgerId}`);
  await page.getByRole("link", { name: "Compare…" }).click();
  await expect(page.getByRole("heading", { name: "Compare with a baseline" })).toBeVisible();
  await expect(page.getByText("Choose a baseline")).toBeVisible();
  await expect(page.getByTestId("baseline-picker")).toHaveAttribute("data-hydrated", "true");

  await page.getByLabel("Baseline", { exact: true }).selectOption("iter:1");
  await expect(page).toHaveURL(/\/compare\?base=iter%3A1$/);
  await expect(tile(page, "Findings added")).toHaveText("1");
  await expect(tile(page, "Findings dropped")).toHaveText("0");
  await expect(tile(page, "Agreement changed")).toHaveText("3");
  await expect(page.getByLabel("Comparison summary")).toContainText("1 new · 0 resolved");

  const signals = page.getByRole("table", { name: "Signals: baseline and current" });
  await expect(signals.getByRole("columnheader", { name: "Iteration 1" })).toBeVisible();
  await expect(signals.getByRole("row", { name: /^score/ })).toBeVisible();
  await expect(page.getByRole("list", { name: "Contradiction changes" })).toContainText("exportCsv");

  const lists = page.getByRole("navigation", { name: "Change lists" });
  await expect(lists.getByRole("link", { name: /Added/ })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("table", { name: "Added units" })).toContainText("auditTrail");
  await lists.getByRole("link", { name: /Changed/ }).click();
  await expect(page).toHaveURL(/section=changed/);
  const changed = page.getByRole("table", { name: "Changed units" });
  await expect(changed.getByRole("row", { name: /legacyDump/ })).toContainText("lowConfidence → reuseCandidates");
  await expect(changed.getByRole("row", { name: /LedgerStore/ })).toContainText("+native-c");
  await expect(lists.getByRole("link", { name: /Unchanged \(1\)/ })).toBeVisible();

  await page.getByLabel("Changes only").check();
  await expect(page).toHaveURL(/base=iter%3A1&changes=1/);
  await expect(lists.getByRole("link", { name: /Unchanged/ })).toHaveCount(0);
  await expect(signals).toBeVisible();

  // The same URL opens the same view.
  const other = await context.newPage();
  await other.goto(page.url());
  await expect(other.getByLabel("Baseline", { exact: true })).toHaveValue("iter:1");
  await expect(other.getByLabel("Changes only")).toBeChecked();
  await expect(tile(other, "Findings added")).toHaveText("1");
  await expect(other.getByRole("navigation", { name: "Change lists" }).getByRole("link", { name: /Unchanged/ })).toHaveCount(0);
  await other.setViewportSize({ width: 1280, height: 1400 });
  await other.goto(`/projects/${projectId}/runs/${ledgerId}/compare?base=iter:1&section=changed`);
  await expect(other.getByRole("table", { name: "Changed units" })).toBeVisible();
  await other.screenshot({ path: ".tmp/compare-screenshot.png", fullPage: true });
  await other.close();
});

test("against its latest iteration a run has nothing changed", async ({ page }) => {
  await page.goto(`/projects/${projectId}/runs/${ledgerId}/compare?base=iter:2&changes=1`);
  await expect(page.getByText("Nothing changed")).toBeVisible();
  await expect(page.getByText("No signal and no score changed.")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Change lists" })).toHaveCount(0);
});

test("another run of the project as the baseline: its units show as dropped", async ({ page }) => {
  await page.goto(`/projects/${projectId}/runs/${ledgerId}/compare`);
  await expect(page.getByTestId("baseline-picker")).toHaveAttribute("data-hydrated", "true");
  await page.getByLabel("Baseline", { exact: true }).selectOption(`run:${tursoId}`);
  await expect(page).toHaveURL(new RegExp(`base=run%3A${tursoId}`));
  await expect(tile(page, "Findings dropped")).toHaveText("17");
  await page
    .getByRole("navigation", { name: "Change lists" })
    .getByRole("link", { name: /Dropped/ })
    .click();
  await expect(page.getByRole("table", { name: "Dropped units" }).locator("tbody tr")).toHaveCount(17);
  await expect(page.getByRole("table", { name: "Signals: baseline and current" }).getByRole("columnheader", { name: "Baseline run" })).toBeVisible();
});

test("a missing baseline is reported clearly, on the page and by the API", async ({ page, request }) => {
  await page.goto(`/projects/${projectId}/runs/${ledgerId}/compare?base=iter:99`);
  await expect(page.getByTestId("compare-error")).toContainText("This run has no iteration 99: it has iterations 1–2.");
  await expect(page.getByLabel("Baseline", { exact: true })).toBeVisible();
  await page.goto(`/projects/${projectId}/runs/${ledgerId}/compare?base=run:nope`);
  await expect(page.getByTestId("compare-error")).toContainText("No baseline run nope in this project.");
  await page.goto(`/projects/${projectId}/runs/${ledgerId}/compare?base=latest`);
  await expect(page.getByTestId("compare-error")).toContainText("is not a baseline");

  const api = `/api/v1/projects/${projectId}/runs/${ledgerId}/compare`;
  const missing = await request.get(`${api}?base=run:nope`);
  expect(missing.status()).toBe(404);
  expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
  const bad = await request.get(`${api}?base=latest`);
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/^base:/);
  const ok = (await (await request.get(`${api}?base=iter:1&changes=1&section=changed&limit=2`)).json()) as { counts: { changed: number }; lists: Record<string, { matched: number; rows: unknown[] }> };
  expect(ok.counts.changed).toBe(3);
  expect(Object.keys(ok.lists)).toEqual(["changed"]);
  expect(ok.lists.changed!.rows).toHaveLength(2);
});
