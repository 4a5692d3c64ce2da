import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { dbQuery, sampleDir } from "./helpers";

/**
 * The Form view, typed into key by key as a person types (pressSequentially, never fill: an
 * editor that re-parsed the packet on every keystroke passed fill-based tests while it threw
 * away every space and newline).
 */

const created: string[] = [];
test.afterAll(async ({ request }) => {
  // Other specs count the projects they see.
  for (const id of created) await request.delete(`/api/v1/projects/${id}`);
});

/** A project of the test's own: a fresh copy of the sample. */
async function newProject(request: import("@playwright/test").APIRequestContext): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-e2e-form-"));
  fs.cpSync(sampleDir(), dir, { recursive: true });
  const res = await request.post("/api/v1/projects", { data: { path: dir } });
  expect(res.status()).toBe(201);
  const { project, job } = (await res.json()) as { project: { id: string }; job: { id: string } };
  // Writes wait for the index job's transaction: start typing once it is done.
  await expect.poll(async () => ((await (await request.get(`/api/v1/jobs/${job.id}`)).json()) as { job: { status: string } }).job.status, { timeout: 60_000 }).toBe("succeeded");
  created.push(project.id);
  return project.id;
}

async function openNew(page: Page, projectId: string, kind: "packet" | "brief"): Promise<string> {
  await page.goto(`/projects/${projectId}/packets`);
  await page.getByRole("button", { name: kind === "brief" ? "New brief" : "New packet", exact: true }).click();
  await expect(page).toHaveURL(/\/packets\/[^/]+$/);
  await expect(page.getByTestId("packet-editor")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
  return page.url().split("/").pop()!;
}

/** Empties a field as a person would (select all, delete), then types the text key by key. */
async function typeInto(page: Page, label: string, text: string) {
  const box = page.getByTestId("packet-form").getByLabel(label, { exact: true });
  await box.click();
  await box.press("ControlOrMeta+a");
  await box.press("Delete");
  await box.pressSequentially(text);
  return box;
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem("workbench.displayName", "Ana"));
});

test("every field of a packet keeps what is typed; the title follows the Task until renamed", async ({ page, context, request }) => {
  const projectId = await newProject(request);
  const packetId = await openNew(page, projectId, "packet");
  await expect(page.getByTestId("packet-title")).toHaveText("Untitled packet");

  const fields = await page
    .getByTestId("packet-form")
    .locator("input[id^=field-]")
    .evaluateAll((els) => els.map((e) => document.querySelector(`label[for="${e.id}"]`)!.textContent!.trim()));
  const sections = await page
    .getByTestId("packet-form")
    .locator("textarea")
    .evaluateAll((els) => els.map((e) => document.querySelector(`label[for="${e.id}"]`)!.textContent!.trim()));
  expect(fields).toEqual(["Task", "Parent", "Scope"]);
  expect(sections.length).toBeGreaterThanOrEqual(7);

  const task = await typeInto(page, "Task", "Retry a failed export job ");
  await expect(task).toHaveValue("Retry a failed export job ");
  // The header follows the Task as it is typed.
  await expect(page.getByTestId("packet-title")).toHaveText("Retry a failed export job");
  for (const label of fields.slice(1)) await expect(await typeInto(page, label, `${label} value — ünïcode ✓ `)).toHaveValue(`${label} value — ünïcode ✓ `);
  for (const label of sections) {
    const box = await typeInto(page, label, "- one");
    await box.press("Enter");
    await box.pressSequentially("- two");
    await box.press("Enter");
    await box.press("Enter");
    await box.pressSequentially("- three ");
    await expect(box).toHaveValue("- one\n- two\n\n- three ");
  }

  // A co-editor opening the packet sees every word as typed.
  const other = await context.newPage();
  await other.goto(`/projects/${projectId}/packets/${packetId}`);
  await expect(other.getByTestId("packet-editor")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
  await expect(other.getByTestId("packet-form").getByLabel("Task", { exact: true })).toHaveValue("Retry a failed export job");
  await expect(other.getByTestId("packet-form").getByLabel("Scope", { exact: true })).toHaveValue("Scope value — ünïcode ✓");
  await expect(other.getByTestId("packet-form").getByLabel(sections[0]!, { exact: true })).toHaveValue("- one\n- two\n\n- three");
  await other.close();

  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Saved as revision 2")).toBeVisible();
  const [row] = dbQuery<{ title: string; markdown: string }>("SELECT p.title, r.markdown FROM Packet p JOIN PacketRevision r ON r.packetId = p.id AND r.number = p.headNumber WHERE p.id = ?", packetId);
  expect(row!.title).toBe("Retry a failed export job");
  expect(row!.markdown).toContain("**Task**: Retry a failed export job");
  expect(row!.markdown).toContain("- one\n- two\n\n- three");

  // Renamed, the title stays put when the Task changes.
  await page.getByRole("button", { name: "Rename packet", exact: true }).click();
  const name = page.getByLabel("Packet title");
  await name.press("ControlOrMeta+a");
  await name.pressSequentially("Export retries");
  await name.press("Enter");
  await expect(page.getByTestId("packet-title")).toHaveText("Export retries");
  await expect(page.getByTestId("title-source")).toHaveText("Renamed");
  await typeInto(page, "Task", "Resume exports after a restart");
  await expect(page.getByTestId("packet-title")).toHaveText("Export retries");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Saved as revision 3")).toBeVisible();
  expect(dbQuery<{ title: string }>("SELECT title FROM Packet WHERE id = ?", packetId)).toEqual([{ title: "Export retries" }]);
  await page.goto(`/projects/${projectId}/packets`);
  await expect(page.getByRole("link", { name: "Export retries" })).toBeVisible();
});

test("every field of a brief keeps what is typed; its title follows the Summary", async ({ page, request }) => {
  const projectId = await newProject(request);
  const packetId = await openNew(page, projectId, "brief");
  await expect(page.getByTestId("packet-title")).toHaveText("Untitled brief");
  const form = page.getByTestId("packet-form");
  const labels = await form.locator("label").allTextContents();
  for (const label of labels.map((l) => l.trim())) {
    const box = form.getByLabel(label, { exact: true });
    const multiline = (await box.evaluate((e) => e.tagName)) === "TEXTAREA";
    await typeInto(page, label, `${label} — said ünïcode `);
    if (multiline) {
      await box.press("Enter");
      await box.press("Enter");
      await box.pressSequentially("then this");
      await expect(box).toHaveValue(`${label} — said ünïcode \n\nthen this`);
    } else {
      await expect(box).toHaveValue(`${label} — said ünïcode `);
    }
  }
  await expect(page.getByTestId("packet-title")).toHaveText("Summary — said ünïcode");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Saved as revision 2")).toBeVisible();
  expect(dbQuery<{ title: string }>("SELECT title FROM Packet WHERE id = ?", packetId)).toEqual([{ title: "Summary — said ünïcode" }]);
});
