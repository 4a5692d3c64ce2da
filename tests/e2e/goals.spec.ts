/**
 * A project whose tasks are GoalCheckpoints v2 under a goal policy: the task page shows the
 * GoalDecision (decision, scope, auto-continue, goal totals against goal limits, slice
 * boundaries, pending compaction, requires_human, the review reserve, each reason in words),
 * and an approver signs a goal gate decision that lands in the checkpoint and stops the goal.
 * The project is a copy of the sample, removed at the end (other journeys list every project).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { pyJsonDumps } from "../../lib/memory/canonical-json";
import { parsePyJson } from "../../lib/memory/py-json";
import { goldenCase } from "../helpers/goal-golden";
import { sampleDir } from "./helpers";

test.describe.configure({ mode: "serial" });

const SECRET = "e2e-approver-secret-0123456789"; // the server's key (playwright.config.ts)
let root = "";
let projectId = "";
const coord = (...p: string[]) => path.join(root, ".coord", ...p);

/** A golden checkpoint under another task id, edited; numbers keep how they were written. */
function checkpointFrom(name: string, taskId: string, edit: (doc: Record<string, any>) => void = () => {}): string {
  const doc = parsePyJson(goldenCase(name).checkpoint) as Record<string, any>;
  doc.task_id = taskId;
  doc.task.task_id = taskId;
  edit(doc);
  return pyJsonDumps(doc, { indent: 2, sortKeys: false }) + "\n";
}

test.beforeAll(async ({ request }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "wb-e2e-goals-"));
  fs.cpSync(sampleDir(), root, { recursive: true });
  // The goal policy of the reference's tests, with a tool-call goal budget and the server's approver key pinned too.
  const policy = parsePyJson(goldenCase("worked: healthy, one child active, children below the cap").policy) as Record<string, any>;
  policy.goal_limits = { tool_calls: 9 };
  policy.base_policy.human_authorization.key_hashes["e2e-approver"] = crypto.createHash("sha256").update(SECRET).digest("hex");
  fs.writeFileSync(coord("goals.policy.json"), JSON.stringify(policy, null, 2) + "\n");
  fs.writeFileSync(coord("checkpoints/goal-slice.json"), checkpointFrom("worked: cycle at the slice cap, fresh evidence, next step, no child", "goal-slice"));
  fs.writeFileSync(
    coord("checkpoints/goal-compact.json"),
    checkpointFrom("worked: transcript at the hard cap, growth below the soft threshold", "goal-compact", (d) => {
      d.review_required = true;
    }),
  );
  fs.writeFileSync(
    coord("checkpoints/goal-gate.json"),
    checkpointFrom("worked: signed decline while the cycle is at the slice cap", "goal-gate", (d) => (d.task.decisions = [])),
  );
  const res = await request.post("/api/v1/projects", { data: { path: root } });
  expect(res.status()).toBe(201);
  projectId = ((await res.json()) as { project: { id: string } }).project.id;
});

test.afterAll(async ({ request }) => {
  if (projectId) expect((await request.delete(`/api/v1/projects/${projectId}`)).status()).toBe(204);
  fs.rmSync(root, { recursive: true, force: true });
});

test("a slice at its boundary: checkpoint, scope slice, auto-continue, each part of the goal in view", async ({ page }) => {
  await page.goto(`/projects/${projectId}/tasks/goal-slice`);
  const panel = page.getByLabel("Goal decision panel");
  const heading = panel.getByRole("heading", { name: /^Goal decision/ });
  await expect(heading).toContainText("checkpoint");
  await expect(heading).toContainText("scope: slice");
  await expect(heading).toContainText("auto-continue");
  await expect(heading).toContainText("no spawning");
  await expect(panel.getByRole("list", { name: "Reasons" })).toContainText("slice_limit:cycle");
  await expect(panel.getByRole("list", { name: "Reasons" })).toContainText("Slice boundary: cycle reached max_cycles (3). This slice ends; its counts carry over into the goal totals.");
  // Goal totals against goal limits: the tool-call budget, and unknown usage without a limit.
  const totals = page.getByRole("table", { name: "Goal totals" });
  await expect(totals.locator('[data-total="tool_calls"]')).toHaveAttribute("data-state", "under");
  await expect(totals.locator('[data-total="tool_calls"]')).toContainText("9");
  await expect(totals.locator('[data-total="cost_microusd"]')).toContainText("unknown");
  await expect(totals.locator('[data-total="cost_microusd"]')).toHaveAttribute("data-state", "no_limit");
  // Slice boundaries: only the cycle counter reached its cap.
  const slice = page.getByRole("table", { name: "Slice boundaries" });
  await expect(slice.locator('[data-counter="cycle"]')).toHaveAttribute("data-reached", "true");
  await expect(slice.locator('[data-counter="cycle"]')).toContainText("boundary reached");
  await expect(slice.locator('[data-counter="tool_calls"]')).toHaveAttribute("data-reached", "false");
  const state = page.getByLabel("Goal state");
  await expect(state).toContainText("pending compaction");
  await expect(state).toContainText("requires human");
  await expect(state).toContainText("test:passing");
  await expect(page.getByLabel("Review reserve")).toContainText("reviewer_reserve (policy)1");
  // The decision JSON is what `workbench policy evaluate --json` prints.
  const json = JSON.parse(await page.getByLabel("Decision JSON").innerText()) as Record<string, unknown>;
  expect(json).toMatchObject({ schema_version: 2, policy_id: "test-policy-goals", decision: "checkpoint", scope: "slice", auto_continue: true, reasons: ["slice_limit:cycle"] });
  await page.screenshot({ path: test.info().outputPath("goal-slice.png"), fullPage: true });
});

test("a context limit: compaction pending, scope action, and the reviewer's slot held back", async ({ page }) => {
  await page.goto(`/projects/${projectId}/tasks/goal-compact`);
  const heading = page.getByLabel("Goal decision panel").getByRole("heading", { name: /^Goal decision/ });
  await expect(heading).toContainText("checkpoint");
  await expect(heading).toContainText("scope: action");
  await expect(heading).toContainText("no auto-continue");
  const reasons = page.getByRole("list", { name: "Reasons" });
  await expect(reasons).toContainText("limit_reached:transcript_bytes=200:max_transcript_bytes=200");
  await expect(reasons).toContainText("context_compaction_required");
  await expect(reasons).toContainText("Compaction pending");
  await expect(page.getByLabel("Goal state")).toContainText("yes: compact the active context before the next action");
  await expect(page.getByRole("table", { name: "Action limits" }).locator('[data-action-metric="transcript_bytes"]')).toContainText("compact first");
  const reserve = page.getByLabel("Review reserve");
  await expect(reserve).toContainText("review requiredyes");
  await expect(reserve).toContainText("held back now1");
  await expect(reserve).toContainText("room for an executor3");
  await page.screenshot({ path: test.info().outputPath("goal-compact.png"), fullPage: true });
});

test("an approver declines a goal gate: the signed decision lands in the checkpoint and the goal stops", async ({ page }) => {
  await page.goto(`/projects/${projectId}/tasks/goal-gate`);
  const heading = page.getByLabel("Goal decision panel").getByRole("heading", { name: /^Goal decision/ });
  await expect(heading).toContainText("scope: slice");
  const gates = page.getByLabel("Sign a gate decision");
  await gates.getByLabel("Gate", { exact: true }).fill("danger");
  await gates.getByLabel("Gate rationale").fill("Not authorized: touches production credentials.");
  await gates.getByRole("button", { name: "Decline gate" }).click();
  await expect(gates.getByRole("status")).toContainText("Declined gate danger.");
  await expect(heading).toContainText("stop");
  await expect(heading).toContainText("scope: goal");
  await expect(page.getByRole("list", { name: "Reasons" })).toContainText("human_gate:danger:decline");
  await expect(page.getByRole("list", { name: "Reasons" })).toContainText("A human declined gate danger (its latest signed decision).");
  await expect(page.getByRole("list", { name: "Gates" }).locator('[data-gate="danger"]')).toContainText("decline");
  await expect(page.getByRole("list", { name: "Gates" }).locator('[data-gate="danger"]')).toContainText("human:e2e-approver");

  const stored = JSON.parse(fs.readFileSync(coord("checkpoints/goal-gate.json"), "utf8")) as { task: { pending_action_hash: string; decisions: Record<string, any>[] } };
  expect(stored.task.decisions).toHaveLength(1);
  expect(stored.task.decisions[0]).toMatchObject({
    gate: "danger",
    actor: "human:e2e-approver",
    decision: "decline",
    rationale: "Not authorized: touches production credentials.",
    affected_action_hash: stored.task.pending_action_hash,
    authorization: { scheme: "hmac-sha256", key_id: "e2e-approver" },
  });
  expect(stored.task.decisions[0]!.authorization.signature).toMatch(/^[0-9a-f]{64}$/);
  expect(await page.content()).not.toContain(SECRET);
  expect(fs.existsSync(coord("checkpoints/goal-gate.json.lock"))).toBe(false);
  await page.screenshot({ path: test.info().outputPath("goal-gate-declined.png"), fullPage: true });
});
