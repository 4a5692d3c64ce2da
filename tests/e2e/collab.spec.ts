import { expect, test, type Browser, type Page } from "@playwright/test";
import { dbQuery, sampleDir } from "./helpers";

test.describe.configure({ mode: "serial" });

let projectId = "";
let packetId = "";

test.beforeAll(async ({ request }) => {
  const res = await request.post("/api/v1/projects", { data: { path: sampleDir() } });
  expect(res.status()).toBe(201);
  projectId = ((await res.json()) as { project: { id: string } }).project.id;
  const created = await request.post(`/api/v1/projects/${projectId}/packets`, {
    data: { markdown: "## Agent Brief\n\n**Category:** bug\n**Summary:** Exports stop after a restart\n\n**Current behavior:**\nA restart drops queued exports.\n" },
  });
  packetId = ((await created.json()) as { packet: { id: string } }).packet.id;
});

// The foundation journey starts from an empty dashboard: leave none of this behind.
test.afterAll(async ({ request }) => {
  expect((await request.delete(`/api/v1/projects/${projectId}`)).ok()).toBe(true);
});

/** A browser of its own (separate storage, so a separate person) with a display name. */
async function person(browser: Browser, name: string): Promise<Page> {
  const context = await browser.newContext();
  await context.addInitScript((n) => window.localStorage.setItem("workbench.displayName", n), name);
  const page = await context.newPage();
  await page.goto(`/projects/${projectId}/packets/${packetId}`);
  // The first open loads the tokenizer tables and syncs with the co-editing server.
  await expect(page.getByTestId("packet-editor")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
  await page.getByRole("tab", { name: "Markdown" }).click();
  return page;
}

async function typeAtEnd(page: Page, text: string) {
  const editor = page.getByLabel("Packet markdown");
  await editor.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(text);
}

test("two people type into the same brief and each sees the other's text and presence", async ({ browser }) => {
  // The first test of the run opens two cold browsers, each loading the tokenizer tables
  // (up to 30 s apiece on a busy 2-core machine) before anyone types.
  test.setTimeout(120_000);
  const ana = await person(browser, "Ana");
  const ben = await person(browser, "Ben");
  await expect(ana.getByRole("list", { name: "People editing" })).toContainText("Ana (you)");
  await expect(ana.getByRole("list", { name: "People editing" })).toContainText("Ben");
  await expect(ben.getByRole("list", { name: "People editing" })).toContainText("Ben (you)");
  await expect(ben.getByRole("list", { name: "People editing" })).toContainText("Ana");

  await typeAtEnd(ana, "\n**Desired behavior:**\nQueued exports survive a restart.\n");
  await expect(ben.getByLabel("Packet markdown")).toContainText("Queued exports survive a restart.");
  // Ana's cursor shows in Ben's editor, labelled with her name.
  await expect(ben.locator(".cm-ySelectionCaret").filter({ hasText: "Ana" })).toHaveCount(1);
  await typeAtEnd(ben, "\n**Out of scope:**\n- (none)\n");
  await expect(ana.getByLabel("Packet markdown")).toContainText("- (none)");

  // Both see the same findings: the brief still lacks acceptance criteria and key interfaces.
  const rules = async (p: Page) =>
    (
      await p
        .getByTestId("findings")
        .locator("[data-rule]")
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-rule")))
    ).join(",");
  await expect.poll(async () => (await rules(ana)) === (await rules(ben)) && (await rules(ana)).length > 0).toBe(true);

  // The server has stored what both typed.
  await expect(ana.getByTestId("collab-status").getByRole("status")).toHaveAttribute("data-state", "stored");
  await expect.poll(() => dbQuery<{ n: number }>("SELECT length(state) AS n FROM PacketDoc WHERE packetId = ?", packetId)[0]?.n ?? 0).toBeGreaterThan(0);
  await ana.context().close();
  await ben.context().close();
});

test("a comment and a review decision reach the other person without a reload", async ({ browser }) => {
  const ana = await person(browser, "Ana");
  const ben = await person(browser, "Ben");
  const anaReview = ana.getByTestId("review-panel");
  const benReview = ben.getByTestId("review-panel");
  await anaReview.getByLabel("Comment section").selectOption({ label: "Current behavior" });
  await anaReview.getByLabel("New comment").fill("Say which exports: scheduled or manual?");
  await anaReview.getByRole("button", { name: "Comment", exact: true }).click();
  await expect(benReview.getByRole("list", { name: "Comment threads" })).toContainText("Say which exports");
  await benReview.getByLabel("Reply to Ana").fill("Both.");
  await benReview.getByRole("button", { name: "Reply" }).click();
  await expect(anaReview.getByRole("list", { name: "Comment threads" })).toContainText("Both.");
  await anaReview.getByRole("button", { name: "Resolve" }).click();
  await expect(benReview.getByRole("list", { name: "Comment threads" })).toContainText("resolved by Ana");

  // A comment on a quoted range follows the text when someone types before it.
  await ana.getByLabel("Packet markdown").getByText("**Summary:** Exports stop after a restart").click();
  await ana.keyboard.press("Home");
  await ana.keyboard.press("Shift+End");
  await anaReview.getByRole("button", { name: "Quote the selected text" }).click();
  await anaReview.getByLabel("New comment").fill("Only after a restart?");
  await anaReview.getByRole("button", { name: "Comment", exact: true }).click();
  const quoted = benReview.locator("[data-thread]").filter({ hasText: "Only after a restart?" });
  await expect(quoted).toContainText("**Summary:** Exports stop");
  const benEditor = ben.getByLabel("Packet markdown");
  await benEditor.click();
  await ben.keyboard.press("Control+Home");
  await ben.keyboard.type("<!-- triage -->\n");
  await expect(ana.getByLabel("Packet markdown")).toContainText("<!-- triage -->");
  await ana.locator("[data-thread]").filter({ hasText: "Only after a restart?" }).getByRole("button", { name: "show in text" }).click();
  await expect.poll(() => ana.evaluate(() => window.getSelection()?.toString())).toBe("**Summary:** Exports stop after a restart");
  expect(dbQuery<{ anchorStart: string | null }>("SELECT anchorStart FROM PacketComment WHERE packetId = ? AND body = ?", packetId, "Only after a restart?")[0]?.anchorStart).toBeTruthy();

  await anaReview.getByRole("button", { name: "Request review" }).click();
  // A decision names the saved revision it is about.
  await expect(benReview.getByRole("button", { name: "Request changes r1" })).toBeVisible();
  // r1 still has BLOCK findings: it cannot be approved.
  await expect(benReview.getByRole("button", { name: "Approve r1" })).toBeDisabled();
  await benReview.getByLabel("Review note").fill("Add acceptance criteria");
  await benReview.getByRole("button", { name: "Request changes r1" }).click();
  await expect(anaReview).toContainText("changes requested");
  expect(dbQuery<{ actor: string; toStatus: string }>("SELECT actor, toStatus FROM PacketReviewEvent WHERE packetId = ? ORDER BY createdAt", packetId)).toEqual([
    { actor: "Ana", toStatus: "in_review" },
    { actor: "Ben", toStatus: "changes_requested" },
  ]);
  const md = await ana.request.get(`/api/v1/projects/${projectId}/packets/${packetId}/review/export?format=md`);
  expect(await md.text()).toContain("Ben: in_review → changes_requested on r1 — Add acceptance criteria");
  const json = (await (await ana.request.get(`/api/v1/projects/${projectId}/packets/${packetId}/review/export?format=json`)).json()) as {
    events: { actor: string; toStatus: string; revision: number; note: string | null }[];
    threads: { section: string | null; quote: string | null; resolved: boolean; comments: { author: string; body: string }[] }[];
  };
  expect(json.events.map((e) => [e.actor, e.toStatus, e.revision, e.note])).toEqual([
    ["Ana", "in_review", 1, null],
    ["Ben", "changes_requested", 1, "Add acceptance criteria"],
  ]);
  expect(json.threads).toMatchObject([
    { section: "Current behavior", resolved: true, comments: [{ author: "Ana" }, { author: "Ben", body: "Both." }] },
    { section: null, quote: "**Summary:** Exports stop after a restart", resolved: false, comments: [{ author: "Ana", body: "Only after a restart?" }] },
  ]);
  await ana.context().close();
  await ben.context().close();
});

test("a named snapshot can be compared with the text now and restored for everyone", async ({ browser }) => {
  const ana = await person(browser, "Ana");
  const ben = await person(browser, "Ben");
  await ana.getByRole("tab", { name: "Snapshots" }).click();
  const panel = ana.getByTestId("snapshots-panel");
  await panel.getByLabel("Snapshot name").fill("before criteria");
  await panel.getByRole("button", { name: "Take snapshot" }).click();
  await expect(panel.getByRole("list", { name: "Snapshots" })).toContainText("before criteria");
  await typeAtEnd(ben, "\n**Acceptance criteria:**\n- [ ] persists queued exports across a restart\n");
  await expect(ana.getByLabel("Packet markdown")).toContainText("persists queued exports");
  await expect(panel.getByTestId("snapshot-diff")).toContainText(/\+[^+]*persists queued exports across a restart/);
  await panel.getByRole("button", { name: "Restore before criteria" }).click();
  await expect(ben.getByLabel("Packet markdown")).not.toContainText("persists queued exports");
  await ana.context().close();
  await ben.context().close();
});

test("a display name chosen in the editor is remembered after a reload", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`/projects/${projectId}/packets/${packetId}`);
  const status = page.getByTestId("collab-status");
  await status.getByLabel("Your name, shown to others editing:").fill("Dee");
  await status.getByRole("button", { name: "Set name" }).click();
  await expect(status.getByRole("list", { name: "People editing" })).toContainText("Dee (you)");
  await page.reload();
  await expect(page.getByTestId("packet-editor")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
  await expect(page.getByTestId("collab-status").getByRole("list", { name: "People editing" })).toContainText("Dee (you)");
  await expect(page.getByTestId("collab-status").getByLabel("Your name, shown to others editing:")).toHaveCount(0);
  await context.close();
});
