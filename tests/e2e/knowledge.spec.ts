import { expect, test } from "@playwright/test";
import { sampleDir } from "./helpers";

test.describe.configure({ mode: "serial" });

let projectId = "";

test.beforeAll(async ({ request }) => {
  const res = await request.post("/api/v1/projects", { data: { path: sampleDir() } });
  expect(res.status()).toBe(201);
  projectId = ((await res.json()) as { project: { id: string } }).project.id;
});

test("the knowledge base page shows the MOC tree and its health", async ({ page }) => {
  await page.goto(`/projects/${projectId}/knowledge`);
  await expect(page.getByRole("heading", { name: "Knowledge base", level: 1 })).toBeVisible();
  const health = page.getByTestId("kb-health");
  await expect(health).toContainText("docs/architecture/_index.md → ./data-model.md");
  await expect(health).toContainText("docs/onboarding/_index.md");
  await expect(page.getByRole("list", { name: "Map of content" })).toContainText("docs/runbooks/payment-webhook-replay.md");
});

test("build a pack for a prompt and see the walk", async ({ page }) => {
  await page.goto(`/projects/${projectId}/knowledge`);
  await page.getByLabel(/^Prompt/).fill("How do we replay payment webhooks when the provider retries fail?");
  const answered = page.waitForResponse((r) => r.url().endsWith("/loader") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Build pack" }).click();
  expect((await answered).status()).toBe(200);
  const result = page.getByTestId("loader-result");
  const sections = page.getByRole("table", { name: "Sections scored" });
  await expect(sections.getByRole("row", { name: /docs\/runbooks\/_index\.md/ })).toContainText("relevant");
  await expect(sections.getByRole("row", { name: /docs\/architecture\/_index\.md/ })).toContainText("irrelevant");
  await expect(result).toContainText("docs/runbooks/payment-webhook-replay.md");
  const pack = page.getByTestId("loader-pack");
  await expect(pack).toContainText("<!-- context-loader:v1 -->");
  await expect(pack).toContainText("Trivial: no");
  await expect(pack).toContainText("### `docs/runbooks/payment-webhook-replay.md`");
});

test("a trivial prompt reads nothing; Ctrl+Enter runs it", async ({ page }) => {
  await page.goto(`/projects/${projectId}/knowledge`);
  const box = page.getByLabel(/^Prompt/);
  await box.fill("thanks");
  await box.press("Control+Enter");
  await expect(page.getByTestId("loader-result")).toContainText("Trivial prompt");
  await expect(page.getByTestId("loader-pack")).toContainText('Reason: prompt is a pure acknowledgment ("thanks")');
  await expect(page.getByTestId("loader-result")).toContainText("Read 0 files");
});

test("a question about the agent's own model reads nothing; a question about the project's model is walked", async ({ page, request }) => {
  await page.goto(`/projects/${projectId}/knowledge`);
  await page.getByLabel(/^Prompt/).fill("Which Claude are you, exactly, and what version?");
  await page.getByRole("button", { name: "Build pack" }).click();
  await expect(page.getByTestId("loader-result")).toContainText("Trivial prompt");
  await expect(page.getByTestId("loader-pack")).toContainText('Reason: prompt is a meta-question about the agent ("Which Claude are you, exactly, and what version?")');
  await expect(page.getByTestId("loader-result")).toContainText("Read 0 files");
  const walked = await request.post(`/api/v1/projects/${projectId}/loader`, { data: { prompt: "which model should the billing service use for retries?" } });
  expect(((await walked.json()) as { pack: string }).pack).toContain("Trivial: no");
});

test("the loader API returns the pack and the walk", async ({ request }) => {
  const res = await request.post(`/api/v1/projects/${projectId}/loader`, { data: { prompt: "why are sessions stored server-side instead of JWTs?" } });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { pack: string; packTokens: number; tokenizer: string; walk: { files: { path: string; status: string }[] } };
  expect(body.pack.startsWith("<!-- context-loader:v1 -->\n# Context pack\n")).toBe(true);
  expect(body.packTokens).toBeLessThanOrEqual(3000);
  expect(body.tokenizer).toContain("cl100k_base");
  expect(body.walk.files.filter((f) => f.status === "read").map((f) => f.path)).toContain("docs/decisions/0002-server-side-sessions.md");
  const bad = await request.post(`/api/v1/projects/${projectId}/loader`, { data: { nope: 1 } });
  expect(bad.status()).toBe(400);
});
