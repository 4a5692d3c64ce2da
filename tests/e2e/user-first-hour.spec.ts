import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test, type Page } from "@playwright/test";
import YAML from "yaml";
import { parsePacket } from "../../lib/packets";
import { dbQuery, pageProblems } from "./helpers";

/**
 * A new user's first hour, typed and clicked as a person does: no fill, no API shortcuts.
 * Every page on the way must load without a console error or a failed request.
 */

const SECRET = "e2e-approver-secret-0123456789"; // the server's approver key (playwright.config.ts)
const ADD = "8d3a6f12-4b7e-4c91-9f0a-1e5d2c8b7a63";
const PACKET = parsePacket(fs.readFileSync(path.resolve("tests/fixtures/packets/export-jobs.md"), "utf8"));

/** Empties a form field as a person would (select all, delete), then types the text key by key. */
async function typeInto(page: Page, label: string, text: string) {
  const box = page.getByTestId("packet-form").getByLabel(label, { exact: true });
  await box.click();
  await box.press("ControlOrMeta+a");
  await box.press("Delete");
  for (const [i, line] of text.split("\n").entries()) {
    if (i > 0) await box.press("Enter");
    await box.pressSequentially(line);
  }
  await expect(box).toHaveValue(text);
}

const created: string[] = [];
test.afterAll(async ({ request }) => {
  // Other specs count the projects they see.
  for (const id of created) await request.delete(`/api/v1/projects/${id}`);
});

test("the first hour: add a project, read a topic, ask the loader, write and hand off a packet, apply a memory proposal, search a runbook", async ({ page }) => {
  test.setTimeout(240_000);
  const problems = pageProblems(page);

  // The user's repository: a copy of the sample whose policy pins this approver's key.
  // A pristine copy: other specs decide and apply the proposals of the shared sample copy.
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "wb-first-hour-"));
  const { createSampleProject } = (await import(pathToFileURL(path.resolve("scripts/sample-project.mjs")).href)) as { createSampleProject: (dir: string, o?: { force?: boolean }) => Promise<unknown> };
  await createSampleProject(root, { force: true });
  const policyFile = path.join(root, ".coord", "policy.json");
  const policy = JSON.parse(fs.readFileSync(policyFile, "utf8")) as { human_authorization: { key_hashes: Record<string, string> } };
  policy.human_authorization.key_hashes["e2e-approver"] = crypto.createHash("sha256").update(SECRET).digest("hex");
  fs.writeFileSync(policyFile, JSON.stringify(policy, null, 2) + "\n");

  // 1. Add the project and watch it index.
  await page.goto("/");
  await page.getByLabel("Project folder on this machine").pressSequentially(root);
  await page.getByRole("button", { name: "Add and index" }).click();
  await expect(page).toHaveURL(/\/projects\/[a-z0-9]+(\?job=[a-z0-9]+)?$/);
  await expect(page.getByRole("status").filter({ hasText: "succeeded" })).toBeVisible({ timeout: 60_000 });
  const projectId = /\/projects\/([a-z0-9]+)/.exec(page.url())![1]!;
  created.push(projectId);
  expect(dbQuery<{ rootPath: string }>("SELECT rootPath FROM Project WHERE id = ?", projectId)).toEqual([{ rootPath: root }]);

  // 2. Read a topic.
  await page.getByRole("navigation", { name: "Projects" }).getByRole("link", { name: "Topics" }).first().click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/topics`));
  await page.getByRole("link", { name: "JIRA-123", exact: true }).first().click();
  await expect(page).toHaveURL(/\/topics\/JIRA-123$/);
  await expect(page.getByRole("heading", { name: "Work State" })).toBeVisible();

  // 3. Ask the context-loader.
  await page.goto(`/projects/${projectId}/knowledge`);
  await page.getByLabel(/^Prompt/).pressSequentially("How do we replay payment webhooks when the provider retries fail?");
  await page.getByRole("button", { name: "Build pack" }).click();
  await expect(page.getByTestId("loader-pack")).toContainText("### `docs/runbooks/payment-webhook-replay.md`");

  // 4. Write a packet in the Form view, key by key.
  await page.goto(`/projects/${projectId}/packets`);
  await page.getByRole("button", { name: "New packet", exact: true }).click();
  await expect(page).toHaveURL(/\/packets\/[^/]+$/);
  const packetId = page.url().split("/").pop()!;
  await expect(page.getByTestId("packet-editor")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
  await expect(page.getByRole("tab", { name: "Form" })).toHaveAttribute("aria-selected", "true");
  for (const f of PACKET.fields) await typeInto(page, f.label, f.value);
  const form = page.getByTestId("packet-form");
  const sections = await form.locator("textarea").evaluateAll((els) => els.map((e) => document.querySelector(`label[for="${e.id}"]`)!.textContent!.trim()));
  for (const title of sections) {
    const body = PACKET.sections.find((s) => s.title === title)?.body;
    if (body !== undefined) await typeInto(page, title, body);
    else {
      // A template section the packet does not need (Progress on a fresh start): emptied.
      const box = form.getByLabel(title, { exact: true });
      await box.click();
      await box.press("ControlOrMeta+a");
      await box.press("Delete");
    }
  }
  await expect(page.getByTestId("packet-title")).toHaveText(PACKET.fields[0]!.value);
  await expect(page.getByTestId("gate-status")).toContainText("gates pass");

  // Saving asks a new user for a name first, then saves under it.
  await page.getByRole("button", { name: "Save", exact: true }).click();
  const nameDialog = page.getByRole("dialog");
  await nameDialog.getByLabel("Display name").pressSequentially("Ana");
  await nameDialog.getByRole("button", { name: /^Save name and/ }).click();
  await expect(page.getByText("Saved as revision 2")).toBeVisible();
  const [saved] = dbQuery<{ title: string; author: string; markdown: string }>(
    "SELECT p.title, r.author, r.markdown FROM Packet p JOIN PacketRevision r ON r.packetId = p.id AND r.number = p.headNumber WHERE p.id = ?",
    packetId,
  );
  expect(saved).toMatchObject({ title: PACKET.fields[0]!.value, author: "Ana" });
  expect(parsePacket(saved!.markdown).sections.find((s) => s.title === "Constraints")!.body).toBe(PACKET.sections.find((s) => s.title === "Constraints")!.body);

  // 5. Request review, approve, emit, open the handoff.
  const review = page.getByTestId("review-panel");
  await review.getByRole("button", { name: "Request review" }).click();
  await review.getByRole("button", { name: "Approve" }).click();
  await expect(review).toContainText("approved revision r2");
  await page.getByRole("button", { name: "Emit r2" }).click();
  await expect(page.getByTestId("gate-status")).toContainText("emitted r2");
  expect(dbQuery<{ reviewStatus: string; emittedNumber: number }>("SELECT reviewStatus, emittedNumber FROM Packet WHERE id = ?", packetId)).toEqual([{ reviewStatus: "approved", emittedNumber: 2 }]);
  await page.getByRole("link", { name: new RegExp(`/api/v1/packets/${packetId}$`) }).click();
  await expect(page.locator("body")).toContainText(`**Task**: ${PACKET.fields[0]!.value}`);

  // 6. Approve a memory proposal, then apply it where the page says.
  await page.goto(`/projects/${projectId}/memory`);
  const card = page.locator(`[data-proposal="${ADD}"]`);
  await card.getByLabel("Rationale").pressSequentially("Matches ADR 0002 and the revocation runbook.");
  await card.getByRole("button", { name: "Approve" }).click();
  const outcome = page.getByRole("status", { name: "What happened" });
  await expect(outcome).toContainText("Next: apply it.");
  const ready = page.getByRole("list", { name: "Approved, ready to apply" });
  await ready.locator(`[data-proposal="${ADD}"]`).getByRole("button", { name: "Apply to memory.yml" }).click();
  await expect(outcome).toContainText("is event M3 in .coord/memory.yml.");
  const memory = YAML.parse(fs.readFileSync(path.join(root, ".coord", "memory.yml"), "utf8")) as { events: { event_id: string; source_proposal_id?: string }[] };
  expect(memory.events.at(-1)).toMatchObject({ event_id: "M3", source_proposal_id: ADD });

  // 7. Search a word from a runbook.
  await page.getByRole("link", { name: "Search everything" }).click();
  const field = page.getByLabel("Search everything indexed");
  await field.pressSequentially("resend");
  await field.press("Enter");
  // Other projects may hold the same runbook: narrow to this one, as a person would.
  await page
    .getByRole("navigation", { name: "Narrow the results" })
    .getByRole("link", { name: new RegExp(`^${path.basename(root)}\\s*\\d+$`) })
    .click();
  await expect(page).toHaveURL(new RegExp(`project=${projectId}`));
  const hit = page.getByTestId("search-hits").locator("[data-nav-row]").filter({ hasText: "Runbook — replay a missed payment webhook" });
  await expect(hit).toHaveCount(1);
  await expect(hit.getByText("Knowledge base", { exact: true })).toBeVisible();
  await hit.getByRole("link").first().click();
  await expect(page.getByLabel("Document content")).toContainText("Resend");

  expect(problems).toEqual([]);
});
