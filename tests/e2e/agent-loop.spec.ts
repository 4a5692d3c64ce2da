/**
 * Agents in the loop, end to end through the MCP SDK's own client against the real servers:
 * over stdio (`workbench mcp` on the local server's database) an agent drafts a brief and asks
 * for review while a `get_handoff` wait is pending; a person edits, saves and approves it in
 * Chromium, and the wait resolves with the approved text. Over HTTP against the team server, an
 * editor's token drafts, a viewer's token may not, a revoked token is refused, the activity page
 * shows the draft, and the hostile markdown the agent drafted stays inert on the pages.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { SETUP_CODE_HEADER, setupCode } from "../../lib/auth/setup-code";
import { TEAM_SECRET } from "../../playwright.config";
import { dbQuery, sampleDir, TEAM_URL, teamDbQuery } from "./helpers";

test.describe.configure({ mode: "serial" });

const BRIEF = fs.readFileSync(path.resolve("tests/fixtures/packets/clean-brief.md"), "utf8");
/** What the person adds in the browser: the approved text must carry it. */
const EDIT = "\n- `src/runner/run-log.ts` (`RunLog.record`) — written by the reviewer";
const PASSWORD = "correct horse battery staple";
const HOSTILE_TITLE = `<img src=x onerror="window.__pwned=1;alert(1)">Hostile brief`;
const HOSTILE = [
  "## Agent Brief",
  "",
  "**Category:** bug",
  `**Summary:** Exports stop <img src=x onerror="window.__pwned=2;alert(2)"> after a restart`,
  "",
  "**Current behavior:**",
  "<script>window.__pwned=3;alert(3)</script>",
  "[open the runbook](javascript:window.__pwned=4;alert(4)) and <iframe src=javascript:alert(5)></iframe>",
  "",
].join("\n");

type Structured = Record<string, unknown>;
const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Structured> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(r.isError, `${name}: ${text(r)}`).toBeFalsy();
  return r.structuredContent as Structured;
}

let localProjectId = "";

test.beforeAll(async ({ request }) => {
  const res = await request.post("/api/v1/projects", { data: { path: sampleDir() } });
  expect(res.status()).toBe(201);
  localProjectId = ((await res.json()) as { project: { id: string } }).project.id;
});

// Later specs start from an empty dashboard (local) and claim the team server's first account:
// leave neither a project nor an account behind.
test.afterAll(async ({ request }) => {
  expect((await request.delete(`/api/v1/projects/${localProjectId}`)).ok()).toBe(true);
});

test("over stdio: the agent drafts and waits; a person edits and approves in the browser; the wait resolves with the approved text", async ({ browser }) => {
  // The first page load of a run warms the tokenizer tables (slow on a busy 2-core machine).
  test.setTimeout(120_000);
  const agent = new Client({ name: "e2e-stdio-agent", version: "1.0.0" });
  await agent.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ["bin/workbench.cjs", "mcp"],
      // The local server's database: the agent and the dashboard share it.
      env: { ...(process.env as Record<string, string>), WORKBENCH_DATA_DIR: path.resolve(process.env.E2E_DATA_DIR ?? ".tmp/e2e-data"), DATABASE_URL: "", WORKBENCH_MODE: "local" },
      stderr: "pipe",
    }),
  );
  try {
    const drafted = await call(agent, "draft_packet", { project: localProjectId, kind: "brief", markdown: BRIEF, title: "Scheduled skills" });
    const packetId = drafted.packet as string;
    expect(drafted).toMatchObject({ revision: 1, reviewStatus: "draft", emittable: true });
    expect(await call(agent, "request_review", { packet: packetId, note: "ready for a look" })).toMatchObject({ reviewStatus: "in_review" });
    const handoff = agent.callTool({ name: "get_handoff", arguments: { packet: packetId, waitSeconds: 120 } }, undefined, { timeout: 150_000 }) as Promise<CallToolResult>;

    const context = await browser.newContext();
    await context.addInitScript(() => window.localStorage.setItem("workbench.displayName", "Pat"));
    const page = await context.newPage();
    await page.goto(`/projects/${localProjectId}/packets/${packetId}`);
    await expect(page.getByTestId("packet-editor")).toHaveAttribute("data-ready", "true", { timeout: 60_000 });
    // The page names the agent on the revision it saved and on its review request; the stdio
    // server's name already says "agent", so no "(agent)" is added after it.
    await expect(page.getByTestId("head-agent")).toHaveText("r1 by stdio agent");
    const r1 = page.getByRole("table", { name: "Revisions" }).getByRole("row", { name: /^r1 / });
    await expect(r1).toContainText("stdio agent");
    await expect(r1).not.toContainText("(agent)");
    const review = page.getByTestId("review-panel");
    await expect(review.getByRole("list", { name: "Review history" })).toContainText("local via stdio agent: draft → in review on r1");

    await page.getByRole("tab", { name: "Markdown" }).click();
    await page.getByLabel("Packet markdown").click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(EDIT);
    const saved = page.waitForResponse((r) => r.url().endsWith(`/packets/${packetId}/revisions`) && r.request().method() === "POST");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    expect((await saved).ok()).toBe(true);
    const approve = review.getByRole("button", { name: "Approve r2" });
    await expect(approve).toBeEnabled();
    const decided = page.waitForResponse((r) => r.url().includes(`/packets/${packetId}/review`) && r.request().method() === "POST");
    await approve.click();
    expect((await decided).ok()).toBe(true);
    const approvedAt = Date.now();

    const result = await handoff;
    const tookMs = Date.now() - approvedAt;
    test.info().annotations.push({ type: "get_handoff after the approval (stdio, another process)", description: `${tookMs} ms` });
    expect(result.isError, text(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ approved: true, approvedRevision: 2, reviewStatus: "approved" });
    expect((result.structuredContent as { markdown: string }).markdown).toContain("written by the reviewer");
    // The person's revision is theirs; the agent's is the agent's; the approval is the person's.
    expect(dbQuery<{ number: number; author: string | null; agentName: string | null }>("SELECT number, author, agentName FROM PacketRevision WHERE packetId = ? ORDER BY number", packetId)).toEqual([
      { number: 1, author: "local", agentName: "stdio agent" },
      { number: 2, author: "Pat", agentName: null },
    ]);
    expect(dbQuery<{ actor: string; toStatus: string; agentName: string | null }>("SELECT actor, toStatus, agentName FROM PacketReviewEvent WHERE packetId = ? ORDER BY createdAt", packetId)).toEqual([
      { actor: "local", toStatus: "in_review", agentName: "stdio agent" },
      { actor: "Pat", toStatus: "approved", agentName: null },
    ]);
    expect(dbQuery<{ action: string; revision: number }>("SELECT action, revision FROM AgentActivity WHERE packetId = ? ORDER BY createdAt", packetId)).toEqual([
      { action: "drafted", revision: 1 },
      { action: "requested_review", revision: 1 },
      { action: "picked_up_handoff", revision: 2 },
    ]);
    await context.close();
  } finally {
    await agent.close();
  }
});

/** A signed-in browser of the team server (the session cookie lives in its context). */
async function signedIn(browser: Browser, email: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: TEAM_URL });
  const res = await context.request.post("/api/auth/sign-in/email", { headers: { origin: TEAM_URL }, data: { email, password: PASSWORD } });
  expect(res.ok(), await res.text()).toBe(true);
  return context;
}

async function newToken(request: APIRequestContext, name: string): Promise<{ id: string; token: string }> {
  const res = await request.post("/api/v1/me/tokens", { data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { token: { id: string; token: string } }).token;
}

async function agentOver(token: string): Promise<Client> {
  const client = new Client({ name: "e2e-http-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${TEAM_URL}/api/v1/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

/** Nothing the agent wrote ran or became an element: no dialog, no script, no image, no javascript: link. */
async function expectInert(page: Page, dialogs: string[]): Promise<void> {
  expect(dialogs).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(page.locator('img[src="x"], iframe, a[href^="javascript:"]')).toHaveCount(0);
  expect(await page.evaluate(() => [...document.querySelectorAll("script")].some((s) => (s.textContent ?? "").trim().startsWith("window.__pwned")))).toBe(false);
}

test("over HTTP with tokens: an editor's agent drafts, a viewer's may not, a revoked token is refused; the activity page shows the draft, inert", async ({ browser }) => {
  test.setTimeout(120_000);
  let projectId = "";
  const admin = await browser.newContext({ baseURL: TEAM_URL });
  try {
    // The first account (the setup code), a project, an editor and a viewer: set up through the API.
    const claim = await admin.request.post("/api/auth/sign-up/email", {
      headers: { origin: TEAM_URL, [SETUP_CODE_HEADER]: setupCode(TEAM_SECRET) },
      data: { name: "Ada Admin", email: "ada@example.com", password: PASSWORD },
    });
    expect(claim.ok(), await claim.text()).toBe(true);
    const added = await admin.request.post("/api/v1/projects", { data: { path: sampleDir() } });
    expect(added.status()).toBe(201);
    projectId = ((await added.json()) as { project: { id: string } }).project.id;
    for (const [name, email, role] of [
      ["Eddie Editor", "eddie@example.com", "editor"],
      ["Vera Viewer", "vera@example.com", "viewer"],
    ] as const) {
      expect((await admin.request.post("/api/v1/admin/accounts", { data: { name, email, password: PASSWORD } })).status()).toBe(201);
      expect((await admin.request.post(`/api/v1/projects/${projectId}/members`, { data: { email, role } })).ok()).toBe(true);
    }

    const eddie = await signedIn(browser, "eddie@example.com");
    const vera = await signedIn(browser, "vera@example.com");
    const editorToken = await newToken(eddie.request, "claude-code");
    const oldToken = await newToken(eddie.request, "old-agent");
    expect((await eddie.request.delete(`/api/v1/me/tokens/${oldToken.id}`)).ok()).toBe(true);
    const viewerToken = await newToken(vera.request, "vera-agent");
    await vera.close();

    const editorAgent = await agentOver(editorToken.token);
    const drafted = await call(editorAgent, "draft_packet", { project: projectId, kind: "brief", markdown: HOSTILE, title: HOSTILE_TITLE });
    await editorAgent.close();
    const packetId = drafted.packet as string;
    expect(drafted.url).toBe(`${TEAM_URL}/projects/${projectId}/packets/${packetId}`);
    expect(teamDbQuery<{ author: string; agentName: string; agentTokenId: string }>("SELECT author, agentName, agentTokenId FROM PacketRevision WHERE packetId = ?", packetId)).toEqual([
      { author: "Eddie Editor", agentName: "claude-code", agentTokenId: editorToken.id },
    ]);

    const viewerAgent = await agentOver(viewerToken.token);
    const refused = (await viewerAgent.callTool({ name: "draft_packet", arguments: { project: projectId, kind: "brief", markdown: BRIEF } })) as CallToolResult;
    await viewerAgent.close();
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/editor/);

    const revoked = await fetch(`${TEAM_URL}/api/v1/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${oldToken.token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "revoked", version: "0" } } }),
    });
    expect(revoked.status).toBe(401);
    expect(teamDbQuery<{ n: number }>(`SELECT count(*) AS n FROM "Packet" WHERE "projectId" = ?`, projectId)).toEqual([{ n: 1 }]);

    const page = await eddie.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`/projects/${projectId}/activity`);
    const row = page.getByRole("table", { name: "Agent activity" }).locator('tr[data-action="drafted"]');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("claude-code (agent)");
    await expect(row).toContainText("Eddie Editor");
    await expect(row).toContainText("r1");
    const link = row.getByRole("link", { name: HOSTILE_TITLE });
    await expect(link).toHaveAttribute("href", `/projects/${projectId}/packets/${packetId}`);
    await expectInert(page, dialogs);

    await link.click();
    await expect(page.getByTestId("packet-editor")).toHaveAttribute("data-ready", "true", { timeout: 60_000 });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(HOSTILE_TITLE);
    await expect(page.getByTestId("head-agent")).toHaveText("r1 by claude-code (agent)");
    await page.getByRole("tab", { name: "Markdown" }).click();
    await expect(page.getByLabel("Packet markdown")).toContainText("<script>window.__pwned=3;alert(3)</script>");
    await expectInert(page, dialogs);
    await eddie.close();
  } finally {
    if (projectId) expect((await admin.request.delete(`/api/v1/projects/${projectId}`)).ok()).toBe(true);
    await admin.close();
    // The team spec claims the server's first account: remove every account this test made
    // (their sessions, tokens and memberships go with them).
    const db = new Database(path.join(`${process.env.E2E_DATA_DIR ?? ".tmp/e2e-data"}-team`, "workbench.db"));
    try {
      db.pragma("busy_timeout = 5000");
      db.pragma("foreign_keys = ON");
      db.prepare(`DELETE FROM "User" WHERE "email" IN ('ada@example.com', 'eddie@example.com', 'vera@example.com')`).run();
    } finally {
      db.close();
    }
  }
});
