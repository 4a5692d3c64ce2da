import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "@playwright/test";
import { SAMPLE_KEY_ID, SAMPLE_KEY_SECRET, pinSampleKey } from "../../lib/memory/sample-key";
import { dbQuery } from "./helpers";

// The bundled sample as `workbench serve --sample` (npm start) makes it: in the server's data
// folder, its policy pinning the sample-only key. The server has no key of its own for it.
const ADD = "8d3a6f12-4b7e-4c91-9f0a-1e5d2c8b7a63";
const dataDir = process.env.E2E_DATA_DIR ?? path.resolve(".tmp/e2e-data");
const sampleRoot = path.join(dataDir, "sample-project");
const coord = (...p: string[]) => path.join(sampleRoot, ".coord", ...p);
let projectId = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  const { createSampleProject } = (await import(pathToFileURL(path.resolve("scripts/sample-project.mjs")).href)) as { createSampleProject: (dir: string, o?: { force?: boolean }) => Promise<unknown> };
  await createSampleProject(sampleRoot, { force: true });
  pinSampleKey(sampleRoot);
  const res = await request.post("/api/v1/projects", { data: { path: sampleRoot, name: "Bundled sample" } });
  expect(res.status()).toBe(201);
  projectId = ((await res.json()) as { project: { id: string } }).project.id;
});

test.afterAll(async ({ request }) => {
  // Other specs count the projects they see.
  if (projectId) await request.delete(`/api/v1/projects/${projectId}`);
});

test("a newcomer approves a proposal of the bundled sample with its sample-only key, and applies it", async ({ page }) => {
  await page.goto(`/projects/${projectId}/memory`);
  await expect(page.getByText(`human:${SAMPLE_KEY_ID} is the bundled sample's sample-only key`)).toBeVisible();
  await expect(page.getByText("no approver key")).toHaveCount(0);
  const card = page.locator(`[data-proposal="${ADD}"]`);
  await expect(card.getByLabel("Sign as key")).toHaveValue(SAMPLE_KEY_ID);
  await card.getByLabel("Rationale").fill("Trying the sample.");
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("navigation", { name: "Proposal states" })).toContainText("Approved (1)");

  const signed = JSON.parse(fs.readFileSync(coord("memory-proposals", `${ADD}.json`), "utf8")) as { state: string; decision: { actor: string; authorization: { scheme: string; key_id: string; signature: string } } };
  expect(signed.state).toBe("approved");
  expect(signed.decision).toMatchObject({ actor: `human:${SAMPLE_KEY_ID}`, authorization: { scheme: "hmac-sha256", key_id: SAMPLE_KEY_ID } });
  expect(signed.decision.authorization.signature).toMatch(/^[0-9a-f]{64}$/);
  expect(await page.content()).not.toContain(SAMPLE_KEY_SECRET);

  await page.goto(`/projects/${projectId}/memory?state=approved`);
  const approved = page.locator(`[data-proposal="${ADD}"]`);
  await expect(approved.getByLabel("Decision record")).toContainText("signature verified");
  await approved.getByRole("button", { name: "Apply to memory.yml" }).click();
  await expect(page.locator(`[data-proposal="${ADD}"]`)).toContainText("applied as M3");

  // The applied, signed approval reached the database: its memory event is in the search index.
  await expect.poll(() => dbQuery<{ ref: string; body: string }>("SELECT ref, body FROM SearchEntry WHERE projectId = ? AND kind = 'memory'", projectId).map((r) => r.ref)).toContain("M3");
});

test("the sample-only key signs nothing for another project, even one whose policy pins it", async ({ request }) => {
  const other = path.join(path.dirname(dataDir), `${path.basename(dataDir)}-not-the-sample`);
  fs.rmSync(other, { recursive: true, force: true });
  fs.cpSync(sampleRoot, other, { recursive: true });
  const res = await request.post("/api/v1/projects", { data: { path: other, name: "Not the sample" } });
  expect(res.status()).toBe(201);
  const { project, job } = (await res.json()) as { project: { id: string }; job: { id: string } };
  const otherId = project.id;
  // Removed only once indexed: a project removed mid-job fails that job.
  await expect.poll(async () => ((await (await request.get(`/api/v1/jobs/${job.id}`)).json()) as { job: { status: string } }).job.status, { timeout: 60_000 }).toBe("succeeded");
  try {
    const SUPERSEDE = "e27b9c40-5f18-4a3d-8e6c-9b1d0f4a2c75";
    const forged = await request.post(`/api/v1/projects/${otherId}/proposals/${SUPERSEDE}/decision`, { data: { decision: "approve", rationale: "forged", keyId: SAMPLE_KEY_ID } });
    expect(forged.status()).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(fs.readFileSync(path.join(other, ".coord", "memory-proposals", `${SUPERSEDE}.json`), "utf8")).state).toBe("proposed");
  } finally {
    await request.delete(`/api/v1/projects/${otherId}`);
    fs.rmSync(other, { recursive: true, force: true });
  }
});
