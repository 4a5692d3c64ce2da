import fs from "node:fs";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { sampleDir } from "./helpers";

// Review as people new to the Workbench do it: nobody has chosen a display name yet.
test.describe.configure({ mode: "serial" });

let projectId = "";
let packetId = "";
const PACKET = fs.readFileSync(path.resolve("tests/fixtures/packets/export-jobs.md"), "utf8");

test.beforeAll(async ({ request }) => {
  const res = await request.post("/api/v1/projects", { data: { path: sampleDir() } });
  expect(res.status()).toBe(201);
  projectId = ((await res.json()) as { project: { id: string } }).project.id;
});

/** A browser of its own: no display name chosen in it yet. */
async function freshPerson(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

async function editorReady(page: Page) {
  await expect(page.getByTestId("packet-editor")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
}

type History = { events: { actor: string; toStatus: string; revision: number }[] };
type Comments = { comments: { author: string; body: string }[] };

test("Request review without a name asks for one in a dialog, then requests review under it", async ({ browser, request }) => {
  const page = await freshPerson(browser);
  await page.goto(`/projects/${projectId}/packets`);
  await page.getByLabel("Import a packet file").setInputFiles({ name: "export-jobs.md", mimeType: "text/markdown", buffer: Buffer.from(PACKET) });
  await expect(page).toHaveURL(/\/packets\/[^/]+$/);
  packetId = page.url().split("/").pop()!;
  await editorReady(page);

  // The revision saved before anyone chose a name says so, rather than a dash.
  const revisions = page.getByRole("table", { name: "Revisions" });
  await expect(revisions.getByRole("row").filter({ hasText: "r1" })).toContainText("author not recorded");

  const review = page.getByTestId("review-panel");
  await expect(review.getByRole("button", { name: "Request review" })).toBeEnabled();
  await review.getByRole("button", { name: "Request review" }).click();
  const dialog = page.getByRole("dialog", { name: "Your name, before you request review" });
  await expect(dialog).toBeVisible();
  // Focus starts in the dialog, so the name can be typed at once.
  await expect(dialog.getByLabel("Display name")).toBeFocused();
  await dialog.getByLabel("Display name").pressSequentially("Ana Lima");
  await dialog.getByRole("button", { name: "Save name and request review" }).click();
  await expect(dialog).toBeHidden();
  await expect(review.getByRole("region", { name: "Review status" })).toContainText("in review");
  await expect(review.getByRole("list", { name: "Review history" })).toContainText("Ana Lima: draft → in review on r1");

  const history = (await (await request.get(`/api/v1/projects/${projectId}/packets/${packetId}/review`)).json()) as History;
  expect(history.events.map((e) => [e.actor, e.toStatus])).toEqual([["Ana Lima", "in_review"]]);
  // The name is kept: the editor shows its owner by it, and nothing asks again.
  await expect(page.getByRole("list", { name: "People editing" })).toContainText("Ana Lima (you)");
  await page.context().close();
});

test("Comment without a name: cancelling sends nothing; naming yourself posts the comment, and Approve then needs no second ask", async ({ browser, request }) => {
  const page = await freshPerson(browser);
  await page.goto(`/projects/${projectId}/packets/${packetId}`);
  await editorReady(page);
  const review = page.getByTestId("review-panel");
  // "Quote the selected text" looks like the button it is.
  const quote = review.getByRole("button", { name: "Quote the selected text" });
  await expect(quote).toBeVisible();
  await expect(quote).toHaveCSS("border-top-style", "solid");

  await review.getByLabel("New comment").pressSequentially("Name the retry limit.");
  await review.getByRole("button", { name: "Comment", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Your name, before you comment" });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(review.getByLabel("New comment")).toHaveValue("Name the retry limit.");
  expect(((await (await request.get(`/api/v1/projects/${projectId}/packets/${packetId}/comments`)).json()) as Comments).comments).toEqual([]);

  await review.getByRole("button", { name: "Comment", exact: true }).click();
  await dialog.getByLabel("Display name").pressSequentially("Bo");
  await dialog.getByRole("button", { name: "Save name and comment" }).click();
  await expect(review.getByRole("list", { name: "Comment threads" })).toContainText("Name the retry limit.");
  const comments = ((await (await request.get(`/api/v1/projects/${projectId}/packets/${packetId}/comments`)).json()) as Comments).comments;
  expect(comments.map((c) => [c.author, c.body])).toEqual([["Bo", "Name the retry limit."]]);

  await review.getByRole("button", { name: "Approve r1" }).click();
  await expect(review).toContainText("approved revision r1 (frozen)");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  const history = (await (await request.get(`/api/v1/projects/${projectId}/packets/${packetId}/review`)).json()) as History;
  expect(history.events.map((e) => [e.actor, e.toStatus, e.revision])).toEqual([
    ["Ana Lima", "in_review", 1],
    ["Bo", "approved", 1],
  ]);
  await page.context().close();
});
