import fs from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, test } from "@playwright/test";
import { sampleDir, pageProblems } from "./helpers";

// The shell every page shares: the icon, one content column, one link style, counts that agree
// with their nouns, the Re-index bar, and the API page's contents and filter.
test.describe.configure({ mode: "serial" });

let projectId = "";
let topicSlug = "";

test.beforeAll(async ({ request }) => {
  const res = await request.post("/api/v1/projects", { data: { path: sampleDir() } });
  expect(res.status()).toBe(201);
  projectId = ((await res.json()) as { project: { id: string } }).project.id;
  await expect
    .poll(async () => ((await (await request.get(`/api/v1/projects/${projectId}`)).json()) as { project: { latestJob: { status: string } | null } }).project.latestJob?.status, { timeout: 30_000 })
    .toBe("succeeded");
  topicSlug = ((await (await request.get(`/api/v1/projects/${projectId}/topics`)).json()) as { rows: { slug: string }[] }).rows[0]!.slug;
  // An agent drafts a packet through the local HTTP MCP endpoint: the Agent activity table gets a row.
  const agent = new Client({ name: "e2e-shell-agent", version: "1.0.0" });
  await agent.connect(new StreamableHTTPClientTransport(new URL(`${test.info().project.use.baseURL}/api/v1/mcp`)));
  const brief = fs.readFileSync(path.resolve("tests/fixtures/packets/clean-brief.md"), "utf8");
  const drafted = (await agent.callTool({ name: "draft_packet", arguments: { project: projectId, kind: "brief", markdown: brief } })) as CallToolResult;
  await agent.close();
  expect(drafted.isError, JSON.stringify(drafted.content)).toBeFalsy();
  expect((drafted.structuredContent as { packet: string }).packet).toBeTruthy();
});

// Later specs start from an empty dashboard: leave no project behind.
test.afterAll(async ({ request }) => {
  expect((await request.delete(`/api/v1/projects/${projectId}`)).ok()).toBe(true);
});

test("the icon answers, and every page links it", async ({ page, request }) => {
  const ico = await request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect(ico.headers()["content-type"]).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
  const problems = pageProblems(page);
  await page.goto("/");
  const hrefs = await page.locator('link[rel="icon"]').evaluateAll((links) => links.map((l) => (l as HTMLLinkElement).href));
  expect(hrefs.some((h) => /\/icon\.svg/.test(h))).toBe(true);
  for (const href of hrefs) expect((await request.get(href)).status(), href).toBe(200);
  expect(problems).toEqual([]);
});

test("the content column starts at the same left edge, with the same width, on every page", async ({ page }) => {
  // Wide enough that a page's own narrower max width would show (the main area is wider than 80rem).
  await page.setViewportSize({ width: 1680, height: 1000 });
  const problems = pageProblems(page);
  const pages = [
    "/",
    `/projects/${projectId}`,
    `/projects/${projectId}/topics`,
    `/projects/${projectId}/packets`,
    `/projects/${projectId}/activity`,
    `/projects/${projectId}/knowledge`,
    `/projects/${projectId}/topics/${encodeURIComponent(topicSlug)}`,
    `/projects/${projectId}/context`,
    `/projects/${projectId}/runs`,
    `/projects/${projectId}/memory`,
    "/search",
    "/api-docs",
  ];
  const boxes: { url: string; x: number; width: number; h1: number }[] = [];
  for (const url of pages) {
    await page.goto(url);
    const h1 = page.getByRole("heading", { level: 1 }).first();
    await expect(h1, url).toBeVisible();
    const column = (await page.locator("[data-page-container]").boundingBox())!;
    boxes.push({ url, x: Math.round(column.x), width: Math.round(column.width), h1: Math.round((await h1.boundingBox())!.x) });
  }
  const first = boxes[0]!;
  for (const b of boxes) expect(b, b.url).toEqual({ url: b.url, x: first.x, width: first.width, h1: first.h1 });
  expect(problems).toEqual([]);
});

test("links in the Packets, Agent activity and topics tables look like links, and alike", async ({ page }) => {
  const problems = pageProblems(page);
  const colours = async (table: string) => {
    const t = page.getByRole("table", { name: table });
    const a = t.locator("tbody").getByRole("link").first();
    await expect(a).toBeVisible();
    return {
      link: await a.evaluate((el) => getComputedStyle(el).color),
      text: await t.evaluate((el) => getComputedStyle(el).color),
      underlineOnHover: await a.hover().then(() => a.evaluate((el) => getComputedStyle(el).textDecorationLine)),
    };
  };
  await page.goto(`/projects/${projectId}/packets`);
  const packets = await colours("Packets");
  await page.goto(`/projects/${projectId}/activity`);
  const activity = await colours("Agent activity");
  await page.goto(`/projects/${projectId}/topics`);
  const topics = await colours("Topics");
  for (const c of [packets, activity, topics]) {
    expect(c.link).not.toBe(c.text);
    expect(c.underlineOnHover).toBe("underline");
  }
  expect(activity.link).toBe(packets.link);
  expect(topics.link).toBe(packets.link);
  expect(problems).toEqual([]);
});

test("the local HTTP agent is named once, without a second (agent)", async ({ page }) => {
  const problems = pageProblems(page);
  await page.goto(`/projects/${projectId}/activity`);
  const row = page.getByRole("table", { name: "Agent activity" }).locator('tr[data-action="drafted"]');
  await expect(row).toHaveCount(1);
  await expect(row.locator("[data-agent]")).toHaveText("local agent (HTTP)");
  await expect(row).not.toContainText("(agent)");
  expect(problems).toEqual([]);
});

test("counts agree with their nouns, and the Re-index bar shows only while a job runs", async ({ page }) => {
  const problems = pageProblems(page);
  await page.goto(`/projects/${projectId}`);
  await expect(page.getByTestId("index-job").getByRole("status")).toContainText("succeeded", { timeout: 30_000 });
  // Idle: no bar, no empty track, but its row is kept so a starting job does not push the page down.
  await expect(page.getByRole("progressbar")).toHaveCount(0);
  const slot = page.getByTestId("index-progress-slot");
  await expect(slot.locator("*")).toHaveCount(0);
  expect((await slot.boundingBox())!.height).toBeGreaterThan(0);
  await expect(page.getByTestId("index-job").getByRole("status")).toHaveText(/\d+ files?, .* · \d+ topics? · /);

  await page.goto("/");
  const card = page.getByRole("link").filter({ has: page.getByText(sampleDir(), { exact: true }) });
  for (const noun of ["topic", "warning"]) {
    const text = await card.getByText(new RegExp(`^\\d+ ${noun}s?$`)).textContent();
    const n = Number(/^\d+/.exec(text!)![0]);
    expect(text).toBe(`${n} ${noun}${n === 1 ? "" : "s"}`);
  }
  expect(problems).toEqual([]);
});

test("the API page has contents and a filter that narrows the operations as you type", async ({ page }) => {
  const problems = pageProblems(page);
  await page.goto("/api-docs");
  const contents = page.getByRole("navigation", { name: "API contents" });
  const count = page.getByTestId("api-filter-count");
  const total = Number(/^(\d+) operations$/.exec((await count.textContent())!)![1]);
  expect(total).toBeGreaterThan(50);
  await expect(page.locator("section[data-testid^=operation-]:visible")).toHaveCount(total);

  // A contents link jumps to its operation and puts its address in the URL, to share.
  await contents
    .getByRole("link", { name: /Register a folder/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/api-docs#addProject$/);
  await expect(page.getByTestId("operation-addProject")).toBeInViewport();
  await expect(contents.getByRole("link", { name: /Register a folder/ }).first()).toHaveAttribute("aria-current", "location");

  const filter = page.getByLabel("Filter operations");
  await filter.click();
  await filter.pressSequentially("post memory");
  await expect(count).toHaveText(new RegExp(`^\\d+ of ${total} operations$`));
  const shown = page.locator("section[data-testid^=operation-]:visible");
  const n = await shown.count();
  expect(n).toBeGreaterThan(0);
  expect(n).toBeLessThan(total);
  for (const h of await shown.getByRole("heading", { level: 3 }).allTextContents()) expect(h).toMatch(/^POST/);
  await expect(page.getByTestId("operation-addProject")).toBeHidden();
  await expect(contents.getByRole("link")).toHaveCount(n + (await contents.locator('a[href^="#tag-"]').count()));

  // Words no operation has: an empty state with a way back.
  await filter.pressSequentially(" zebra");
  await expect(count).toHaveText(`0 of ${total} operations`);
  await page.getByRole("button", { name: "Clear the filter" }).click();
  await expect(shown).toHaveCount(total);
  expect(problems).toEqual([]);
});

test("a shared operation link opens the page at that operation", async ({ page }) => {
  const problems = pageProblems(page);
  await page.goto("/api-docs#listProjects");
  await expect(page.getByTestId("operation-listProjects")).toBeInViewport();
  const permalink = page.getByTestId("operation-listProjects").getByRole("link", { name: "Link to listProjects" });
  await expect(permalink).toHaveAttribute("href", "#listProjects");
  expect(problems).toEqual([]);
});
