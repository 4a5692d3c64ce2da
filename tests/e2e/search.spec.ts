import { expect, test, type Page } from "@playwright/test";
import { dbQuery, sampleDir } from "./helpers";

test.describe.configure({ mode: "serial" });

let projectId = "";

test.beforeAll(async ({ request }) => {
  const res = await request.post("/api/v1/projects", { data: { path: sampleDir() } });
  expect(res.ok()).toBe(true);
  projectId = ((await res.json()) as { project: { id: string } }).project.id;
  await expect
    .poll(async () => ((await (await request.get(`/api/v1/projects/${projectId}`)).json()) as { project: { latestJob: { status: string } | null } }).project.latestJob?.status, { timeout: 30_000 })
    .toBe("succeeded");
  // Findings are added to the index just after the job, from the reduced run.
  await expect.poll(async () => ((await (await request.get(`/api/v1/search?q=database&kind=finding&project=${projectId}`)).json()) as { total: number }).total, { timeout: 30_000 }).toBeGreaterThan(0);
});

const hits = (page: Page) => page.getByTestId("search-hits").locator("[data-nav-row]");

test("search everything: ranked hits with the words marked, facets that narrow through the URL, j / k and Enter", async ({ page }) => {
  await page.goto("/search");
  await page.getByLabel("Search everything indexed").fill("export");
  await page.getByLabel("Search everything indexed").press("Enter");
  await expect(page).toHaveURL(/\/search\?q=export/);
  await expect(page.getByTestId("search-summary")).toContainText(/\d+ matches/);
  await expect(hits(page).first().locator("mark").first()).toHaveText(/export/i);

  await page
    .getByRole("navigation", { name: "Narrow the results" })
    .getByRole("link", { name: /^Topic\s*\d+$/ })
    .click();
  await expect(page).toHaveURL(/kind=topic/);
  await expect(hits(page)).toHaveCount(2);
  for (const badge of await hits(page)
    .locator("span", { hasText: /^Topic$/ })
    .all())
    await expect(badge).toBeVisible();
  // The URL alone reproduces the view (the count, before the timing that differs per load).
  const counted = (await page.getByTestId("search-summary").textContent())!.split(".")[0]!;
  await page.goto(page.url());
  await expect(hits(page)).toHaveCount(2);
  await expect(page.getByTestId("search-summary")).toContainText(counted);

  await page.keyboard.press("j");
  await expect(hits(page).first()).toBeFocused();
  await page.keyboard.press("j");
  await expect(hits(page).nth(1)).toBeFocused();
  await page.keyboard.press("k");
  await expect(hits(page).first()).toBeFocused();
  const target = await hits(page).first().getByRole("link").getAttribute("href");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`${target!.replace(/[.?]/g, "\\$&")}$`));

  // "/" jumps back to a search field from anywhere on a list page.
  await page.goto("/search?q=export");
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("/");
  await expect(page.getByLabel("Search everything indexed")).toBeFocused();
});

test("a word from a runbook in docs/, typed key by key, is found on the search page and in the palette", async ({ page }) => {
  const runbook = "Runbook — replay a missed payment webhook";
  const documentUrl = new RegExp(`/projects/${projectId}/documents\\?path=docs%2Frunbooks%2Fpayment-webhook-replay\\.md$`);
  await page.goto("/search");
  const field = page.getByLabel("Search everything indexed");
  await field.pressSequentially("resend");
  await field.press("Enter");
  await expect(page).toHaveURL(/\/search\?q=resend/);
  const hit = hits(page).filter({ hasText: runbook });
  await expect(hit).toHaveCount(1);
  await expect(hit.getByText("Knowledge base", { exact: true })).toBeVisible();
  await expect(hit.locator("mark").first()).toHaveText(/^resend$/i);
  // Another form of a word finds it too (stemmed): "replayed" for the runbook's "replay".
  await page.goto("/search");
  await field.pressSequentially("replayed webhooks");
  await field.press("Enter");
  await expect(hits(page).filter({ hasText: runbook })).toHaveCount(1);
  await hits(page).filter({ hasText: runbook }).getByRole("link").first().click();
  await expect(page).toHaveURL(documentUrl);
  await expect(page.getByLabel("Document content")).toContainText('click "Resend"');

  await page.goto(`/projects/${projectId}`);
  await page.keyboard.press("Control+k");
  const palette = page.getByRole("dialog");
  await palette.getByRole("combobox").pressSequentially("resend");
  const match = palette.getByRole("option", { name: new RegExp(runbook) });
  await expect(match).toBeVisible();
  await match.click();
  await expect(page).toHaveURL(documentUrl);
});

test("unicode and hostile queries are searched as words", async ({ page }) => {
  for (const q of ['"unclosed', "NEAR(export", "a AND (b", "東京", "'; DROP TABLE x; --"]) {
    await page.goto(`/search?${new URLSearchParams({ q })}`);
    await expect(page.getByTestId("search-summary")).toBeVisible();
  }
  await page.goto("/search?q=x&kind=spaceship");
  await expect(page.getByRole("alert").filter({ hasText: "kind" })).toContainText(/kind: unknown value "spaceship"/);
});

test("Ctrl+K jumps to a topic by name, and shows full-text matches as you type", async ({ page }) => {
  await page.goto(`/projects/${projectId}`);
  await page.keyboard.press("Control+k");
  const palette = page.getByRole("dialog");
  await expect(palette).toBeVisible();
  await palette.getByRole("combobox").fill("JIRA-123");
  await palette.getByRole("option", { name: /User Export Feature \(JIRA-123\)/ }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/topics/JIRA-123$`));

  await page.keyboard.press("Control+k");
  await palette.getByRole("combobox").fill("queued jobs");
  // The memory event, not the ADR of the same title in docs/ (the knowledge base is searched too).
  const match = palette.getByRole("option", { name: /^Exports run as queued jobs.*Memory event/ });
  await expect(match).toBeVisible();
  await match.click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/memory#M1$`));
  await expect(page.locator("#M1")).toBeVisible();
});

test("a finding found by search opens selected in its run's drawer", async ({ page }) => {
  await page.goto(`/search?q=database&kind=finding&project=${projectId}`);
  const first = hits(page).first();
  const title = (await first.getByRole("link").textContent())!;
  await first.getByRole("link").click();
  await expect(page).toHaveURL(/\/runs\/[^?]+\?f\.q=.+&finding=/);
  await expect(page.getByTestId("finding-drawer")).toContainText(title.split(" · ")[1]!);

  // j / k move the selection through the findings.
  await page.goto(`/projects/${projectId}/runs/${/\/runs\/([^?]+)/.exec(page.url())![1]}`);
  await expect(page.getByTestId("findings-explorer")).toHaveAttribute("data-hydrated", "true");
  await page.keyboard.press("j");
  await expect(page.getByRole("table", { name: "Findings" }).locator('[aria-selected="true"]')).toHaveCount(1);
  const firstSelected = await page.getByTestId("finding-drawer").textContent();
  await page.keyboard.press("j");
  await expect(page.getByTestId("finding-drawer")).not.toHaveText(firstSelected!);
});

test("saved views: a filtered inventory is saved, listed, reachable from the palette, and deleted", async ({ page }) => {
  await page.goto(`/projects/${projectId}/topics?status=in_progress`);
  const views = page.getByTestId("saved-views-inventory");
  await views.getByRole("button", { name: "Save view" }).click();
  await views.getByLabel("View name").fill("Work in flight");
  const saved = page.waitForResponse((r) => r.url().endsWith(`/api/v1/projects/${projectId}/views`) && r.request().method() === "POST");
  await views.getByRole("button", { name: "Save", exact: true }).click();
  expect((await saved).status()).toBe(201);
  await expect(views.getByRole("link", { name: "Work in flight" })).toBeVisible();
  expect(dbQuery<{ surface: string; name: string; query: string }>("SELECT surface, name, query FROM SavedView WHERE projectId = ?", projectId)).toEqual([
    { surface: "inventory", name: "Work in flight", query: `/projects/${projectId}/topics?status=in_progress` },
  ]);

  await page.goto(`/projects/${projectId}/topics`);
  await page.keyboard.press("Control+k");
  await page.getByRole("dialog").getByRole("combobox").fill("Work in flight");
  await page
    .getByRole("dialog")
    .getByRole("option", { name: /^Work in flight/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/topics\\?status=in_progress$`));

  await page.getByTestId("saved-views-inventory").getByRole("button", { name: "Delete saved view Work in flight" }).click();
  await expect(page.getByTestId("saved-views-inventory").getByRole("link", { name: "Work in flight" })).toHaveCount(0);
  expect(dbQuery("SELECT id FROM SavedView WHERE projectId = ?", projectId)).toEqual([]);
});

test("a filtered findings view is saved with its filters", async ({ page }) => {
  const runs = dbQuery<{ id: string }>("SELECT id FROM DeepRun WHERE projectId = ? AND loopType = 'context'", projectId);
  await page.goto(`/projects/${projectId}/runs/${runs[0]!.id}?f.sort=relevance`);
  await expect(page.getByTestId("findings-explorer")).toHaveAttribute("data-hydrated", "true");
  const views = page.getByTestId("saved-views-findings");
  await views.getByRole("button", { name: "Save view" }).click();
  await views.getByLabel("View name").fill("By relevance");
  await views.getByRole("button", { name: "Save", exact: true }).click();
  await expect(views.getByRole("link", { name: "By relevance" })).toHaveAttribute("href", `/projects/${projectId}/runs/${runs[0]!.id}?f.sort=relevance`);
  expect(dbQuery<{ surface: string }>("SELECT surface FROM SavedView WHERE projectId = ? AND name = 'By relevance'", projectId)).toEqual([{ surface: "findings" }]);

  // Opened from the same run page, the saved view applies its filters.
  await page.getByRole("combobox", { name: "Sort" }).selectOption("path");
  await expect(page).toHaveURL(/f\.sort=path/);
  await views.getByRole("link", { name: "By relevance" }).click();
  await expect(page).toHaveURL(/f\.sort=relevance/);
  await expect(page.getByRole("combobox", { name: "Sort" })).toHaveValue("relevance");
});

test("j / k also move through a page's other tables once one of their rows has focus", async ({ page }) => {
  const runs = dbQuery<{ id: string }>("SELECT id FROM DeepRun WHERE projectId = ? AND loopType = 'context'", projectId);
  await page.goto(`/projects/${projectId}/runs/${runs[0]!.id}`);
  const rows = page.getByRole("table", { name: "Convergence trace" }).locator("tbody tr");
  await expect(rows.first()).toHaveAttribute("tabindex", "0");
  await rows.first().focus();
  await page.keyboard.press("j");
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(rows.first()).toBeFocused();
});

test("j / k and Enter walk the inventory table", async ({ page }) => {
  await page.goto(`/projects/${projectId}/topics`);
  const rows = page.getByRole("table", { name: "Topics" }).locator("tbody tr");
  await page.keyboard.press("j");
  await expect(rows.first()).toBeFocused();
  await page.keyboard.press("j");
  await expect(rows.nth(1)).toBeFocused();
  const href = await rows.nth(1).getByRole("link").first().getAttribute("href");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`${href!.replace(/[.?]/g, "\\$&")}$`));
});
