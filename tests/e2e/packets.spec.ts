import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { dbQuery, sampleDir } from "./helpers";

test.describe.configure({ mode: "serial" });

let projectId = "";

test.beforeAll(async ({ request }) => {
  const res = await request.post("/api/v1/projects", { data: { path: sampleDir() } });
  expect(res.status()).toBe(201);
  projectId = ((await res.json()) as { project: { id: string } }).project.id;
});

/** The clean fixture packet with its "Already Tried" line replaced. */
const PACKET = (tried: string) => fs.readFileSync(path.resolve("tests/fixtures/packets/export-jobs.md"), "utf8").replace("- in-memory retry list — lost on every deploy", `- ${tried}`);

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem("workbench.displayName", "Ana"));
});

async function editorReady(page: Page) {
  // The first open loads the tokenizer tables and syncs with the co-editing server.
  await expect(page.getByTestId("packet-editor")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
}

test("write a packet that fails, see the findings in place, fix them, emit", async ({ page, request }) => {
  await page.goto(`/projects/${projectId}/packets`);
  await expect(page.getByRole("heading", { name: "Packets & briefs", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "New packet", exact: true }).click();
  await expect(page).toHaveURL(/\/packets\/[^/]+$/);
  const packetId = page.url().split("/").pop()!;
  await editorReady(page);

  // The template does not pass: Emit, Copy and Download stay disabled.
  await expect(page.getByTestId("gate-status")).toContainText("BLOCK");
  await expect(page.getByRole("button", { name: /^Emit/ })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Download .md" })).toBeDisabled();

  // Write a packet with a file:line reference in the markdown view.
  await page.getByRole("tab", { name: "Markdown" }).click();
  const editor = page.getByLabel("Packet markdown");
  await editor.fill(PACKET("in-memory retry list in queue.ts:42 — lost on every deploy"));
  const finding = page.getByTestId("findings").locator("[data-tier=BLOCK]").first();
  await expect(finding).toContainText("queue.ts:42");
  await expect(page.locator("[data-testid=markdown-editor] [data-finding]").filter({ hasText: "queue.ts:42" })).toBeAttached();
  await expect(page.getByRole("button", { name: /^Emit/ })).toBeDisabled();

  // Clicking the finding selects it in the markdown.
  await finding.click();
  await expect.poll(() => page.evaluate(() => window.getSelection()?.toString() ?? "")).toContain("queue.ts:42");

  // Save the failing text: a revision, but not emittable.
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Saved as revision 2")).toBeVisible();
  expect(dbQuery<{ number: number; blockCount: number }>("SELECT number, blockCount FROM PacketRevision WHERE packetId = ? ORDER BY number", packetId).map((r) => r.number)).toEqual([1, 2]);
  const refused = await request.post(`/api/v1/projects/${projectId}/packets/${packetId}/emit`);
  expect(refused.status()).toBe(422);

  // Fix it in the form view: the Already Tried section.
  await editorReady(page);
  await page.getByRole("tab", { name: "Form" }).click();
  await page.getByLabel("Already Tried").fill("- in-memory retry list — lost on every deploy");
  await expect(page.getByTestId("gate-status")).toContainText("gates pass");
  await expect(page.getByTestId("findings").locator("[data-tier=BLOCK]")).toHaveCount(0);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Saved as revision 3")).toBeVisible();
  // Emission needs an approved revision.
  await expect(page.getByRole("button", { name: /^Emit/ })).toBeDisabled();
  const review = page.getByTestId("review-panel");
  await review.getByRole("button", { name: "Request review" }).click();
  await review.getByRole("button", { name: "Approve" }).click();
  await expect(review).toContainText("approved revision r3 (frozen)");
  await expect(review.getByRole("list", { name: "Review history" })).toContainText("Ana: in review → approved on r3");
  await page.getByRole("button", { name: "Emit r3" }).click();
  await expect(page.getByTestId("gate-status")).toContainText("emitted r3");
  expect(dbQuery<{ emittedNumber: number }>("SELECT emittedNumber FROM Packet WHERE id = ?", packetId)).toEqual([{ emittedNumber: 3 }]);

  // The receiving agent's URL.
  const md = await request.get(`/api/v1/packets/${packetId}`);
  expect(md.headers()["content-type"]).toContain("text/markdown");
  expect(await md.text()).toBe(PACKET("in-memory retry list — lost on every deploy"));
  const json = (await (await request.get(`/api/v1/packets/${packetId}?format=json`)).json()) as Record<string, unknown>;
  expect(json).toMatchObject({ completeness: expect.any(String), token_estimate: expect.any(Number), revision: 3 });

  // Diff the failing and the fixed revision.
  await page.getByLabel("Diff from").selectOption("2");
  await page.getByLabel("Diff to").selectOption("3");
  await page.getByRole("button", { name: "Compare", exact: true }).click();
  const diff = page.getByTestId("revision-diff");
  await expect(diff).toContainText("-- in-memory retry list in queue.ts:42");
  await expect(diff).toContainText("+- in-memory retry list — lost on every deploy");
});

test("the task size decides the Type Surface gate, each finding names its seed line, and the size is saved with the revision", async ({ page, request }) => {
  // The clean packet without its Type Surface: under 300 tokens, so by its own size it passes.
  const markdown = PACKET("in-memory retry list — lost on every deploy").replace(/### Type Surface[^\n]*\n(?:- [^\n]*\n)+\n/, "");
  expect(markdown).not.toContain("Type Surface");
  const res = await request.post(`/api/v1/projects/${projectId}/packets`, { data: { markdown, title: "Sized export jobs" } });
  expect(res.status()).toBe(201);
  const packetId = ((await res.json()) as { packet: { id: string } }).packet.id;
  await page.goto(`/projects/${projectId}/packets/${packetId}`);
  await editorReady(page);
  const size = page.getByLabel("Task size (tokens)");
  await expect(size).toHaveValue("");
  await expect(page.getByTestId("task-size")).toContainText("No task size given");
  await expect(page.getByTestId("gate-status")).toContainText("gates pass");

  // The delegated task is larger than the packet: the HARD-GATE now wants the Type Surface.
  await size.fill("450");
  await expect(page.getByTestId("gate-status")).toContainText("1 BLOCK");
  const finding = page.getByTestId("findings").locator("[data-rule=missing-type-surface]");
  await expect(finding).toHaveAttribute("data-tier", "BLOCK");
  await expect(finding).toContainText("the task is 450 tokens, as given");
  await expect(finding.getByTestId("seed-ref")).toHaveText("seed 001 line 77 (HARD-GATE)");
  await expect(page.getByRole("button", { name: "Download .md" })).toBeDisabled();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Saved as revision 2")).toBeVisible();
  expect(dbQuery<{ number: number; taskTokens: number | null; blockCount: number }>("SELECT number, taskTokens, blockCount FROM PacketRevision WHERE packetId = ? ORDER BY number", packetId)).toEqual([
    { number: 1, taskTokens: null, blockCount: 0 },
    { number: 2, taskTokens: 450, blockCount: 1 },
  ]);

  // Stored with the packet: a reload shows it, and the server gates with it.
  await page.reload();
  await editorReady(page);
  await expect(size).toHaveValue("450");
  await expect(page.getByTestId("gate-status")).toContainText("1 BLOCK");

  // Not a size: Save waits for a whole number.
  await size.fill("3e2");
  await expect(page.getByTestId("task-size")).toContainText("whole number of tokens");
  await expect(page.getByRole("button", { name: "Save", exact: true })).toBeDisabled();

  // Cleared: the packet's own size decides again, and the revision records none.
  await size.fill("");
  await expect(page.getByTestId("gate-status")).toContainText("gates pass");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Saved as revision 3")).toBeVisible();
  expect(dbQuery<{ taskTokens: number | null; blockCount: number }>("SELECT taskTokens, blockCount FROM PacketRevision WHERE packetId = ? AND number = 3", packetId)).toEqual([{ taskTokens: null, blockCount: 0 }]);
});

test("import a brief, duplicate it, archive the copy", async ({ page }) => {
  await page.goto(`/projects/${projectId}/packets`);
  const brief = "## Agent Brief\n\n**Category:** bug\n**Summary:** Exports stop after a restart\n";
  await page.getByLabel("Import a packet file").setInputFiles({ name: "brief.md", mimeType: "text/markdown", buffer: Buffer.from(brief) });
  await expect(page.getByRole("heading", { name: "Exports stop after a restart" })).toBeVisible();
  await editorReady(page);
  await expect(page.getByTestId("findings")).toContainText("brief-current-desired");
  await page.getByRole("button", { name: "Duplicate", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Copy of Exports stop after a restart" })).toBeVisible();
  await editorReady(page);
  await page.getByRole("button", { name: "Archive", exact: true }).click();
  await expect(page.getByText("Archived.")).toBeVisible();
  await page.goto(`/projects/${projectId}/packets?archived=1`);
  await expect(page.getByRole("table", { name: "Packets" })).toContainText("Copy of Exports stop after a restart");
  await page.goto(`/projects/${projectId}/packets`);
  const active = page.getByRole("table", { name: "Packets" });
  await expect(active).toContainText("Exports stop after a restart");
  await expect(active).not.toContainText("Copy of");
});

test("a packet started from a topic belongs to it, and the topic lists it", async ({ page }) => {
  await page.goto(`/projects/${projectId}/topics/JIRA-123`);
  await page.getByRole("button", { name: "New brief", exact: true }).click();
  await expect(page).toHaveURL(/\/packets\/[^/]+$/);
  const packetId = page.url().split("/").pop()!;
  await expect(page.getByLabel("Topic")).toHaveValue("JIRA-123");
  expect(dbQuery<{ topicSlug: string; kind: string }>("SELECT topicSlug, kind FROM Packet WHERE id = ?", packetId)).toEqual([{ topicSlug: "JIRA-123", kind: "brief" }]);
  await page.goto(`/projects/${projectId}/topics/JIRA-123`);
  await expect(page.getByRole("region", { name: "Packets for this topic" })).toContainText("Untitled brief");
});
