import { expect, test, type Page } from "@playwright/test";
import { dbQuery, sampleDir } from "./helpers";

// One journey in order: the project added in the first test is used by the rest.
test.describe.configure({ mode: "serial" });

let projectId = "";

async function openTopics(page: Page) {
  await page.goto(`/projects/${projectId}/topics`);
  await expect(page.getByRole("heading", { name: "Topics" })).toBeVisible();
}

test("add a project by its path and watch it index", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByText("No projects yet").first()).toBeVisible();
  await page.getByLabel("Project folder on this machine").fill(sampleDir());
  const created = page.waitForResponse((r) => r.url().endsWith("/api/v1/projects") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Add and index" }).click();
  expect((await created).status()).toBe(201);
  await expect(page).toHaveURL(/\/projects\/[a-z0-9]+/);
  await expect(page.getByRole("status")).toContainText("succeeded", { timeout: 30_000 });
  projectId = /\/projects\/([a-z0-9]+)/.exec(page.url())![1]!;

  const rows = dbQuery<{ rootPath: string }>("SELECT rootPath FROM Project WHERE id = ?", projectId);
  expect(rows[0]?.rootPath).toBe(sampleDir());
  const topics = dbQuery<{ n: number }>("SELECT count(*) AS n FROM Topic WHERE projectId = ?", projectId);
  expect(topics[0]?.n).toBe(9);
  // The corrupt proposals manifest is listed, naming the file.
  await expect(page.getByRole("list", { name: "Indexing warnings" })).toContainText(".claude/proposals/manifest.json");
});

test("an invalid folder is refused with a clear message", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Project folder on this machine").fill("/definitely/not/here");
  await page.getByRole("button", { name: "Add and index" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "No folder at /definitely/not/here" })).toBeVisible();
});

test("browse the inventory and filter it through the URL", async ({ page }) => {
  await openTopics(page);
  const table = page.getByRole("table", { name: "Topics" });
  await expect(table.locator("tbody tr")).toHaveCount(9);
  // Most recently updated first.
  await expect(table.locator("tbody tr").first()).toContainText("notifications-revamp");

  await page.getByRole("combobox", { name: "Source" }).click();
  await page.getByRole("option", { name: "Proposal" }).click();
  await expect(page).toHaveURL(/source=proposal/);
  await expect(table.locator("tbody tr")).toHaveCount(2);

  await page.reload();
  await expect(page.getByRole("table", { name: "Topics" }).locator("tbody tr")).toHaveCount(2);
  await expect(page.getByRole("combobox", { name: "Source" })).toContainText("Proposal");

  await page.goto(`/projects/${projectId}/topics?status=paused`);
  await expect(page.getByRole("table", { name: "Topics" }).locator("tbody tr")).toHaveCount(1);
  await expect(page.getByRole("table", { name: "Topics" })).toContainText("api-refactor");
});

test("open a topic: the frame, its sections, untrusted content and git history", async ({ page }) => {
  await openTopics(page);
  await page.getByRole("link", { name: "JIRA-123", exact: true }).first().click();
  await expect(page).toHaveURL(/\/topics\/JIRA-123$/);
  await expect(page.getByRole("note").first()).toContainText("HISTORICAL REFERENCE");
  await expect(page.getByRole("heading", { name: "Work State" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Prior art: Brainstorm 'export-approaches'" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Git History" })).toBeVisible();
  await expect(page.getByText("feature/JIRA-123", { exact: true }).first()).toBeVisible();
  // The archivist summary stays inside a visible untrusted boundary, its directive flagged.
  const untrusted = page.locator("[data-untrusted]").first();
  await expect(untrusted).toContainText("UNTRUSTED-CONTENT START");
  await expect(page.getByRole("alert").filter({ hasText: "embedded directive" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Start working" })).toBeVisible();
  // The agent-facing markdown is the seed's format.
  await page.getByText("Markdown for agents").click();
  await expect(page.getByTestId("load-context-markdown")).toContainText("> HISTORICAL REFERENCE — This state was recorded in a prior session.");
});

test("hostile and slashed queries are searched as data, never as paths", async ({ page }) => {
  let dialogs = 0;
  page.on("dialog", (d) => {
    dialogs++;
    void d.dismiss();
  });
  await page.goto(`/projects/${projectId}/context`);
  await page.getByLabel("Identifier or query").fill("../../../etc/passwd");
  await page.getByRole("button", { name: "Load context" }).click();
  await expect(page.getByTestId("load-context-none")).toContainText('No context found for: "../../../etc/passwd"');
  await expect(page.getByText("was not used to build any path")).toBeVisible();

  await page.goto(`/projects/${projectId}/context?q=${encodeURIComponent("feature/JIRA-123")}`);
  await expect(page.getByTestId("load-context-result")).toContainText("feature/JIRA-123");
  await expect(page.getByText("was not used to build any path")).toBeVisible();

  const script = `<img src=x onerror="alert(1)"><script>alert(2)</script>`;
  await page.goto(`/projects/${projectId}/context?q=${encodeURIComponent(script)}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("<script>alert(2)</script>");
  expect(dialogs).toBe(0);

  await page.goto(`/projects/${projectId}/context?q=${encodeURIComponent("   ")}`);
  await expect(page.getByRole("alert").filter({ hasText: "The query is blank" })).toBeVisible();
});

test("fuzzy search finds partial matches across sources", async ({ page }) => {
  await page.goto(`/projects/${projectId}/context?q=export`);
  const result = page.getByTestId("load-context-result");
  await expect(result).toContainText("partial matches");
  await expect(result).toContainText("export-approaches");
  await expect(page.getByRole("heading", { name: "Requirements KB", exact: true })).toBeVisible();
});

test("the API answers errors as {error:{code,message}} without stack traces", async ({ request }) => {
  const missing = await request.get("/api/v1/projects/nope");
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toEqual({ error: { code: "NOT_FOUND", message: "No such project." } });
  const bad = await request.get(`/api/v1/projects/${projectId}/topics?pageSize=99999`);
  expect(bad.status()).toBe(400);
  const body = (await bad.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe("INVALID_INPUT");
  expect(JSON.stringify(body)).not.toContain("at ");
  const md = await request.get(`/api/v1/projects/${projectId}/load-context?q=JIRA-123&format=markdown`);
  expect(md.headers()["content-type"]).toContain("text/markdown");
  expect(await md.text()).toMatch(/^Context: JIRA-123\n/);
});

test("re-index from the page is incremental", async ({ page }) => {
  await page.goto(`/projects/${projectId}`);
  const done = page.waitForResponse((r) => /\/api\/v1\/projects\/[^/]+\/index$/.test(r.url()));
  await page.getByRole("button", { name: "Re-index" }).click();
  expect((await done).status()).toBe(202);
  await expect(page.getByRole("status")).toContainText("0 changed", { timeout: 30_000 });
  const jobs = dbQuery<{ status: string }>("SELECT status FROM IndexJob WHERE projectId = ? ORDER BY createdAt", projectId);
  expect(jobs.map((j) => j.status)).toEqual(["succeeded", "succeeded"]);
});

test("remove a project deletes indexed data only", async ({ page }) => {
  await page.goto(`/projects/${projectId}`);
  await page.getByRole("button", { name: "Remove" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove project" }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(dbQuery<{ n: number }>("SELECT count(*) AS n FROM Topic WHERE projectId = ?", projectId)[0]?.n).toBe(0);
  expect(dbQuery<{ n: number }>("SELECT count(*) AS n FROM Project")[0]?.n).toBe(0);
  const fs = await import("node:fs");
  expect(fs.existsSync(`${sampleDir()}/.claude/work/JIRA-123/state.json`)).toBe(true);
});
