import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "@playwright/test";
import YAML from "yaml";
import { sampleDir } from "./helpers";

test.describe.configure({ mode: "serial" });

const SECRET = "e2e-approver-secret-0123456789"; // the server's key (playwright.config.ts)
const ADD = "8d3a6f12-4b7e-4c91-9f0a-1e5d2c8b7a63";
const SUPERSEDE = "e27b9c40-5f18-4a3d-8e6c-9b1d0f4a2c75";
let projectId = "";
const coord = (...p: string[]) => path.join(sampleDir(), ".coord", ...p);

test.beforeAll(async ({ request }) => {
  // The project's policy pins the approver's key by its sha256.
  const policy = JSON.parse(fs.readFileSync(coord("policy.json"), "utf8")) as { human_authorization: { key_hashes: Record<string, string> } };
  policy.human_authorization.key_hashes["e2e-approver"] = crypto.createHash("sha256").update(SECRET).digest("hex");
  fs.writeFileSync(coord("policy.json"), JSON.stringify(policy, null, 2) + "\n");
  const res = await request.post("/api/v1/projects", { data: { path: sampleDir() } });
  expect(res.status()).toBe(201);
  projectId = ((await res.json()) as { project: { id: string } }).project.id;
});

type Desk = { snapshot: { proposals: { proposal: { proposal_id: string; state: string }; appliedAs: string | null }[] } };

test("approve a proposal in the browser: the page says what happened and that applying comes next, and Apply right there appends its event", async ({ page, request }) => {
  const before = fs.readFileSync(coord("memory.yml"), "utf8");
  await page.goto(`/projects/${projectId}/memory`);
  await expect(page.getByRole("navigation", { name: "Proposal states" })).toContainText("Pending (2)");
  const card = page.locator(`[data-proposal="${ADD}"]`);
  await expect(card.getByText("src/auth/SessionService.ts")).toBeVisible();
  await expect(card).toContainText("present");
  // One timestamp format: the proposal's created_at, with the exact value kept in the <time>.
  const created = card.locator("time").first();
  await expect(created).toHaveText("5 Feb 2026, 09:12 UTC");
  await expect(created).toHaveAttribute("datetime", "2026-02-05T09:12:00.000Z");
  await card.getByLabel("Rationale").pressSequentially("Matches ADR 0002 and the revocation runbook.");
  await card.getByRole("button", { name: "Approve" }).click();

  // The proposal leaves Pending, and the page says where it went and what comes next, with focus on the message.
  const outcome = page.getByRole("status", { name: "What happened" });
  await expect(outcome).toContainText("Approved and signed by human:e2e-approver: “SessionService is the only writer");
  await expect(outcome).toContainText("Next: apply it.");
  await expect(outcome).toBeFocused();
  await expect(page.getByRole("navigation", { name: "Proposal states" })).toContainText("Pending (1)");
  await expect(page.getByRole("navigation", { name: "Proposal states" })).toContainText("Approved (1)");
  const ready = page.getByRole("list", { name: "Approved, ready to apply" });
  const item = ready.locator(`[data-proposal="${ADD}"]`);
  await expect(item.getByLabel("Decision record")).toContainText("signature verified");
  await expect(item.getByLabel("Decision record")).toContainText(/approved by human:e2e-approver at \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC — Matches ADR 0002/);

  // The signed record is in the proposal file, and no secret reached the page.
  const signed = JSON.parse(fs.readFileSync(coord("memory-proposals", `${ADD}.json`), "utf8")) as {
    state: string;
    decision: { actor: string; decision: string; authorization: { scheme: string; key_id: string; signature: string } };
  };
  expect(signed.state).toBe("approved");
  expect(signed.decision).toMatchObject({ actor: "human:e2e-approver", decision: "approve", authorization: { scheme: "hmac-sha256", key_id: "e2e-approver" } });
  expect(signed.decision.authorization.signature).toMatch(/^[0-9a-f]{64}$/);
  expect(await page.content()).not.toContain(SECRET);
  const desk = async () => ((await (await request.get(`/api/v1/projects/${projectId}/memory`)).json()) as Desk).snapshot.proposals.find((p) => p.proposal.proposal_id === ADD)!;
  expect(await desk()).toMatchObject({ proposal: { state: "approved" }, appliedAs: null });

  await item.getByRole("button", { name: "Apply to memory.yml" }).click();
  await expect(outcome).toContainText("is event M3 in .coord/memory.yml.");
  await expect(outcome).toBeFocused();
  await expect(ready).toHaveCount(0);
  expect(await desk()).toMatchObject({ proposal: { state: "approved" }, appliedAs: "M3" });

  const after = fs.readFileSync(coord("memory.yml"), "utf8");
  // Existing events are untouched: the file only grew.
  expect(after.startsWith(before.trimEnd())).toBe(true);
  const doc = YAML.parse(after) as { events: { event_id: string; source_proposal_id?: string; summary: string }[] };
  expect(doc.events.map((e) => e.event_id)).toEqual(["M1", "M2", "M3"]);
  expect(doc.events[2]).toMatchObject({ source_proposal_id: ADD });
  await outcome.getByRole("link", { name: "Show M3" }).click();
  await expect(page.locator("#M3")).toContainText("SessionService is the only writer");
  expect(fs.existsSync(coord("memory.yml.lock"))).toBe(false);
});

test("decline is never approval, and a proposal without evidence cannot be approved", async ({ page }) => {
  await page.goto(`/projects/${projectId}/memory`);
  const card = page.locator(`[data-proposal="${SUPERSEDE}"]`);
  await card.getByLabel("Rationale").pressSequentially("Not decided yet.");
  await card.getByRole("button", { name: "Decline" }).click();
  await expect(page.getByRole("navigation", { name: "Proposal states" })).toContainText("Rejected (1)");
  // A decline is said as one, and nothing waits to be applied.
  await expect(page.getByRole("status", { name: "What happened" })).toContainText("Declined: “Exports run as BullMQ jobs");
  await expect(page.getByRole("list", { name: "Approved, ready to apply" })).toHaveCount(0);
  const apply = await page.request.post(`/api/v1/projects/${projectId}/proposals/${SUPERSEDE}/apply`);
  expect(apply.status()).toBe(422);

  const id = "0b7f2d9e-1c3a-4e5f-8a6b-7c8d9e0f1a2b";
  fs.writeFileSync(
    coord("memory-proposals", `${id}.json`),
    JSON.stringify(
      {
        schema_version: 1,
        proposal_id: id,
        source_task: "JIRA-123",
        action: { operation: "add", target_ref: null, summary: "An unsupported claim", evidence_refs: [] },
        state: "proposed",
        created_at: "2026-02-10T10:00:00Z",
        decision: null,
      },
      null,
      2,
    ),
  );
  await page.reload();
  const bare = page.locator(`[data-proposal="${id}"]`);
  await expect(bare).toContainText("No evidence refs");
  await bare.getByLabel("Rationale").fill("Looks right");
  await expect(bare.getByRole("button", { name: "Approve" })).toBeDisabled();
  const forced = await page.request.post(`/api/v1/projects/${projectId}/proposals/${id}/decision`, { data: { decision: "approve", rationale: "forced", keyId: "e2e-approver" } });
  expect(forced.status()).toBe(422);
});

test("the Tasks table names the task as its checkpoint, its file and its proposal do; its page shows each metric against its limit and the policy decision", async ({ page }) => {
  await page.goto(`/projects/${projectId}/memory?state=approved`);
  await expect(page.locator(`[data-proposal="${ADD}"]`)).toContainText("from task define-auth-contract");
  const tasks = page.getByRole("table", { name: "Tasks" });
  await expect(tasks.getByRole("link").first()).toHaveText("define-auth-contract");
  await expect(tasks).not.toContainText("example-task");
  await tasks.getByRole("link").first().click();
  await expect(page.getByRole("heading", { name: /^Decision/ })).toContainText(/continue|checkpoint|stop/);
  await expect(page.getByRole("table", { name: "Metrics" })).toContainText("max_tool_calls");
  await expect(page.getByRole("meter", { name: "tool_calls against max_tool_calls" })).toBeAttached();
});

test("a bounded brief is drafted from .coord/, refused while placeholders stand, and written as context_001.md", async ({ page }) => {
  await page.goto(`/projects/${projectId}/memory`);
  await page.getByRole("table", { name: "Tasks" }).getByRole("link", { name: "Bounded brief" }).first().click();
  const editor = page.getByTestId("draft-editor");
  await expect(editor).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
  await expect(page.getByLabel("Packet markdown")).toContainText("# Context packet — define-auth-contract");
  await expect(page.getByLabel("Packet markdown")).toContainText("human:e2e-approver");
  const write = page.getByRole("button", { name: /^Write \.coord\/context_001\.md/ });
  await expect(write).toBeDisabled();
  await expect(page.getByTestId("draft-issues")).toContainText("placeholder <runnable check>");
  const md = (await page.getByLabel("Packet markdown").innerText())
    .replace("- <one behaviour the task must deliver>", "- revokes every session of a user when the password changes")
    .replace("- may read: <paths>", "- may read: src/auth/")
    .replace("- may write: <paths>", "- may write: src/auth/SessionService.ts")
    .replace("- must not touch: <paths>", "- must not touch: migrations/")
    .replace("- <runnable check>", "- npm test -- session")
    .replace("- <interfaces or schemas the task relies on, by path (or none)>", "- src/auth/SessionService.ts: revokeAll(userId)");
  await page.getByLabel("Packet markdown").fill(md);
  await expect(write).toBeEnabled();
  await write.click();
  await expect(page.getByText("Written to .coord/context_001.md.")).toBeVisible();
  const written = fs.readFileSync(coord("context_001.md"), "utf8");
  expect(written).toContain("- must not touch: migrations/");
  expect(written).toContain("Return contract");
});

test("evidence refs written as pytest node ids resolve by their file, show whether the test is still there, and the approval applies", async ({ page }) => {
  const nodeId = "tests/test_harness_policy.py::test_override_must_be_authorized_before_original_limit_is_exhausted";
  const renamed = "tests/test_harness_policy.py::TestOverrides::test_renamed_since[late]";
  fs.mkdirSync(path.join(sampleDir(), "tests"), { recursive: true });
  fs.writeFileSync(path.join(sampleDir(), "tests/test_harness_policy.py"), "def test_override_must_be_authorized_before_original_limit_is_exhausted() -> None:\n    assert True\n");
  const id = "5d1e9a7c-2b4f-4c6d-8e0a-1f2b3c4d5e6f";
  const refs = [nodeId, renamed, "src/auth/SessionService.ts#L1-L2"];
  fs.writeFileSync(
    coord("memory-proposals", `${id}.json`),
    JSON.stringify(
      {
        schema_version: 1,
        proposal_id: id,
        source_task: "harness-policy",
        action: { operation: "add", target_ref: null, summary: "Overrides are authorized before the limit is exhausted", evidence_refs: refs },
        state: "proposed",
        created_at: "2026-02-11T09:00:00Z",
        decision: null,
      },
      null,
      2,
    ),
  );
  try {
    await page.goto(`/projects/${projectId}/memory`);
    const card = page.locator(`[data-proposal="${id}"]`);
    const row = (ref: string) => card.locator(`[data-evidence-ref="${ref}"]`);
    await expect(row(nodeId)).toContainText("present");
    await expect(row(nodeId)).toContainText("test_override_must_be_authorized_before_original_limit_is_exhausted found");
    await expect(row(renamed)).toContainText("present");
    await expect(row(renamed)).toContainText("test_renamed_since not found");
    await expect(row("src/auth/SessionService.ts#L1-L2")).toContainText("lines 1-2 present");

    await card.getByLabel("Rationale").fill("The harness test pins the rule.");
    const decided = page.waitForResponse((r) => r.url().endsWith(`/proposals/${id}/decision`) && r.request().method() === "POST");
    await card.getByRole("button", { name: "Approve" }).click();
    expect((await decided).status()).toBe(200);
    await page.goto(`/projects/${projectId}/memory?state=approved`);
    const approved = page.locator(`[data-proposal="${id}"]`);
    await expect(approved.getByLabel("Decision record")).toContainText("signature verified");
    await approved.getByRole("button", { name: "Apply to memory.yml" }).click();
    await expect(page.locator(`[data-proposal="${id}"]`)).toContainText(/applied as M\d+/);
    const doc = YAML.parse(fs.readFileSync(coord("memory.yml"), "utf8")) as { events: { source_proposal_id?: string; evidence_refs: string[] }[] };
    expect(doc.events.at(-1)).toMatchObject({ source_proposal_id: id, evidence_refs: refs });
  } finally {
    // Later journeys see the sample project as it was.
    fs.rmSync(path.join(sampleDir(), "tests"), { recursive: true, force: true });
  }
});

test("the bundled sample's deliberate faults are labelled as part of the sample, and the same fault elsewhere is not", async ({ page, request }) => {
  // The bundled sample as `workbench serve --sample` makes it: in the server's data folder.
  const dataDir = process.env.E2E_DATA_DIR ?? path.resolve(".tmp/e2e-data");
  const bundledRoot = path.join(dataDir, "sample-project");
  const { createSampleProject } = (await import(pathToFileURL(path.resolve("scripts/sample-project.mjs")).href)) as { createSampleProject: (dir: string, o?: { force?: boolean }) => Promise<unknown> };
  await createSampleProject(bundledRoot, { force: true });
  const res = await request.post("/api/v1/projects", { data: { path: bundledRoot, name: "Bundled sample" } });
  expect(res.status()).toBe(201);
  const bundled = ((await res.json()) as { project: { id: string } }).project.id;
  const LABEL = "(deliberate: part of the sample)";
  try {
    // Every warning is still listed; the bundled sample's own fault says what it is.
    await page.goto(`/projects/${bundled}`);
    const warnings = page.getByRole("list", { name: "Indexing warnings" });
    await expect(warnings.getByRole("listitem")).toHaveCount(1);
    await expect(warnings.getByRole("listitem")).toContainText(`.claude/proposals/manifest.json ${LABEL}`);
    await expect(warnings.getByRole("listitem")).toContainText("not valid JSON");
    await page.goto("/");
    await expect(page.getByRole("link", { name: /^Bundled sample/ }).filter({ hasText: "warning" })).toContainText(`1 warning ${LABEL}`);

    await page.goto(`/projects/${bundled}/knowledge`);
    await expect(page.getByTestId("kb-health")).toContainText(`docs/architecture/_index.md → ./data-model.md ${LABEL}`);
    await page.goto(`/projects/${bundled}/topics/JIRA-123`);
    const flagged = page.getByRole("alert").filter({ hasText: "flagged in untrusted content" });
    await expect(flagged).toContainText(`.claude/work/JIRA-123/context/archivist-summary.md:6`);
    await expect(flagged).toContainText(LABEL);

    // The same files registered from anywhere else are a repository like any other: no label.
    for (const url of [`/projects/${projectId}`, `/projects/${projectId}/knowledge`, `/projects/${projectId}/topics/JIRA-123`]) {
      await page.goto(url);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      await expect(page.getByText(LABEL)).toHaveCount(0);
    }
    await page.goto(`/projects/${projectId}`);
    await expect(page.getByRole("list", { name: "Indexing warnings" })).toContainText(".claude/proposals/manifest.json");

    // A fault changed since the sample shipped it may be a real one: the label goes, the warning stays.
    fs.writeFileSync(path.join(bundledRoot, ".claude/proposals/manifest.json"), '{"proposals": [');
    await page.goto(`/projects/${bundled}`);
    await expect(page.getByRole("list", { name: "Indexing warnings" })).toContainText(".claude/proposals/manifest.json");
    await expect(page.getByText(LABEL)).toHaveCount(0);
  } finally {
    // Other specs count the projects they see.
    await request.delete(`/api/v1/projects/${bundled}`);
  }
});
