import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { TRAP_IDS, buildHostileRepo, treeDigest, type HostileRepo } from "../helpers/hostile-repo";
import { removeTempDirs } from "../helpers/project-builder";
import { dbQuery } from "./helpers";

// A repository built to abuse the Workbench, indexed by the server and crawled page by page in
// Chromium: no page fails, no script from the repository runs, nothing from outside the project
// shows, and the server stays ready after every page.
test.describe.configure({ mode: "serial" });

let repo: HostileRepo;
let outsideBefore: Record<string, string>;
let projectId = "";

/** Pages one crawl may visit: every kind of page of the project, bounded. */
const MAX_PAGES = 70;

/**
 * Pages of one route that are all visited: every topic (the hostile ones are topics) and every
 * run (the hostile packets are runs); other routes with an id (commits, tasks, packets, windows
 * of a run) are sampled, two each.
 */
function routeOf(url: string): { route: string; visitAll: boolean } {
  const path = url.split("?")[0]!.replace(/^\/projects\/[^/]+/, "");
  const route = path.replace(/\/(topics|runs|tasks|commits|packets)\/[^/]+/, "/$1/:id") + (url.includes("?") ? "?" : "");
  return { route, visitAll: /^\/(topics|runs)\/:id$/.test(route) };
}

async function expectReady(request: APIRequestContext, after: string) {
  const ready = await request.get("/api/ready");
  expect(ready.status(), `/api/ready after ${after}`).toBe(200);
}

async function noScriptRan(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned === undefined);
}

test.beforeAll(() => {
  // The sizes: a 200,000-line state log and a 60 MB markdown file reachable from the MOC.
  repo = buildHostileRepo({ traps: TRAP_IDS });
  outsideBefore = treeDigest(repo.outside);
});

test.afterAll(() => removeTempDirs());

test("the server indexes the hostile repository and names what it refused", async ({ request }) => {
  test.setTimeout(180_000);
  const res = await request.post("/api/v1/projects", { data: { path: repo.root } });
  expect(res.status()).toBe(201);
  const { project, job } = (await res.json()) as { project: { id: string }; job: { id: string } };
  projectId = project.id;
  await expect.poll(async () => ((await (await request.get(`/api/v1/jobs/${job.id}`)).json()) as { job: { status: string } }).job.status, { timeout: 150_000, intervals: [500] }).toBe("succeeded");
  await expectReady(request, "the index job");
  const codes = dbQuery<{ relPath: string; code: string }>("SELECT relPath, code FROM IndexWarning WHERE projectId = ?", projectId);
  const has = (relPath: string, code: string) => codes.some((c) => c.relPath === relPath && c.code === code);
  expect(has(".claude/work/fifo-topic/state.json", "not_regular")).toBe(true);
  expect(has(".claude/work/deep-nest/state.json", "too_deep")).toBe(true);
  expect(has(".claude/work/leak-topic/state.json", "outside_root")).toBe(true);
  expect(has(".claude/work/loop-topic", "symlink_loop")).toBe(true);
});

test("every page of the project answers, runs no repository script and leaves the server ready", async ({ page, request }) => {
  test.setTimeout(420_000);
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const start = `/projects/${projectId}`;
  // The hostile work folders are not in the work manifest, so no inventory row links them: open them by URL.
  const hostileTopics = ["ESC-1", "XSS-1", "deep-nest", "binary-topic", "latin1-topic", "leak-topic", "fifo-topic", "loop-topic", "outdir-topic", "dir-state", "yaml-bomb", "Case-Topic", "uni\u202ecode"];
  const queue = [start, `${start}/knowledge`, `/search?q=${encodeURIComponent(repo.secret)}`, `/search?q=auth`, ...hostileTopics.map((t) => `${start}/topics/${encodeURIComponent(t)}`)];
  const seen = new Set(queue);
  const visited: { url: string; status: number; bytes: number }[] = [];
  const perRoute = new Map<string, number>();
  while (queue.length && visited.length < MAX_PAGES) {
    const url = queue.shift()!;
    const { route, visitAll } = routeOf(url);
    const n = perRoute.get(route) ?? 0;
    if (!visitAll && n >= 2) continue;
    perRoute.set(route, n + 1);
    const t0 = Date.now();
    const response = await page.goto(url, { waitUntil: "domcontentloaded" });
    const status = response?.status() ?? 0;
    const body = (await response?.body())?.length ?? 0;
    visited.push({ url, status, bytes: body });
    console.log(`${status} ${(body / 1024).toFixed(0)} KB ${Date.now() - t0} ms ${url}`);
    expect(status, url).toBeLessThan(500);
    expect(await noScriptRan(page), url).toBe(true);
    // The search for the marker shows the query itself; its hits are checked through the API below.
    if (!url.includes(repo.secret)) expect(await page.content(), url).not.toContain(repo.secret);
    await expectReady(request, url);
    const links = await page.$$eval("a[href]", (as) => as.map((a) => a.getAttribute("href") ?? ""));
    for (const href of links) {
      if (!href.startsWith(start) && !href.startsWith("/search")) continue;
      const path = href.split("#")[0]!;
      if (!seen.has(path)) {
        seen.add(path);
        queue.push(path);
      }
    }
  }
  expect(dialogs).toEqual([]);
  // Every hostile topic was opened.
  for (const slug of ["ESC-1", "XSS-1", "deep-nest", "binary-topic", "latin1-topic", "leak-topic", "fifo-topic"]) {
    expect(visited.find((v) => v.url.endsWith(`/topics/${slug}`))?.status, slug).toBe(200);
  }
  // Every kind of page was reached: topics (hostile ones too), runs, the memory desk, documents.
  const kinds = ["/topics/", "/runs/", "/memory", "/knowledge", "/documents", "/tasks/"];
  for (const k of kinds)
    expect(
      visited.some((v) => v.url.includes(k)),
      k,
    ).toBe(true);
  // No page may be unbounded: the 200,000-line log and the 60 MB file stay out of any one answer.
  for (const v of visited) expect(v.bytes, v.url).toBeLessThan(3 * 1024 * 1024);
});

test("the knowledge base answers a prompt that walks the loop, the pipe and the 60 MB file", async ({ page, request }) => {
  await page.goto(`/projects/${projectId}/knowledge`);
  await page.getByLabel("Prompt (verbatim, as the main agent would pass it)").fill("fix the auth session loop pipe socket huge secret handling in the login flow");
  const answered = page.waitForResponse((r) => r.url().endsWith("/loader") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Build pack" }).click();
  expect((await answered).status()).toBe(200);
  const pack = page.getByTestId("loader-pack");
  await expect(pack).toContainText("<!-- context-loader:v1 -->");
  await expect(pack).toContainText("docs/fifo.md is a named pipe");
  await expect(pack).toContainText("already read (a loop or an alias)");
  expect(await page.content()).not.toContain(repo.secret);
  await expectReady(request, "the loader");
});

test("evidence for a named pipe, a link out and a loop answers at once with a refusal", async ({ request }) => {
  for (const p of ["docs/fifo.md", "docs/leak.md", "docs/loop/self/self/self/_index.md", "docs/hardlink.md", "docs/huge.md"]) {
    const started = Date.now();
    const res = await request.get(`/api/v1/projects/${projectId}/evidence?path=${encodeURIComponent(p)}`);
    expect(Date.now() - started, p).toBeLessThan(5000);
    expect(res.status(), p).toBeLessThan(500);
    expect(await res.text(), p).not.toContain(repo.secret);
  }
  await expectReady(request, "the evidence checks");
});

test("nothing outside the project was read into the index or changed", async ({ request }) => {
  const res = await request.get(`/api/v1/search?q=${encodeURIComponent(repo.secret)}`);
  expect(res.status()).toBe(200);
  expect(((await res.json()) as { total: number }).total).toBe(0);
  const leaked = dbQuery<{ n: number }>(
    `SELECT (SELECT count(*) FROM Document WHERE content LIKE ?) + (SELECT count(*) FROM TopicSource WHERE detailsJson LIKE ?) + (SELECT count(*) FROM SearchEntry WHERE body LIKE ? OR title LIKE ?) AS n`,
    ...Array<string>(4).fill(`%${repo.secret}%`),
  );
  expect(leaked[0]?.n).toBe(0);
  expect(treeDigest(repo.outside)).toEqual(outsideBefore);
});

test("removing the project drops its indexed data and leaves the repository and what lies outside as they were", async ({ request }) => {
  // Also keeps the crawl's project out of the later journeys, which search across projects.
  const rootBefore = treeDigest(repo.root);
  expect((await request.delete(`/api/v1/projects/${projectId}`)).status()).toBe(204);
  expect(dbQuery<{ n: number }>("SELECT count(*) AS n FROM Project WHERE id = ?", projectId)[0]?.n).toBe(0);
  expect(treeDigest(repo.root)).toEqual(rootBefore);
  expect(treeDigest(repo.outside)).toEqual(outsideBefore);
});
