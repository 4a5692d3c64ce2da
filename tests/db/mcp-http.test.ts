/**
 * The MCP server over Streamable HTTP (POST /api/v1/mcp), driven by the SDK's own client through
 * a real HTTP listener: team mode with a personal access token (tools, resources by URI and
 * role, prompts), and every refusal: no token, a revoked one, a session cookie alone, another
 * site's page, and in local mode a non-loopback Host.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "../../app/api/v1/mcp/route";
import { createToken } from "../../lib/auth/accounts";
import { setMember } from "../../lib/db/repositories/accounts";
import { revokeToken } from "../../lib/db/repositories/tokens";
import { loadContextForProject } from "../../lib/inventory/service";
import { MCP_HTTP_ERRORS } from "../../lib/mcp/http";
import { RESOURCE_NOT_FOUND } from "../../lib/mcp/resources";
import { createProjectPacket, listRevisions } from "../../lib/packets/service";
import { indexFolder } from "../helpers/db";
import { copySampleProject, removeTempDirs } from "../helpers/project-builder";
import { serveRoute } from "../helpers/route-server";
import { accountWithToken, enterTeamMode, leaveTeamMode } from "../helpers/team-mode";

const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } };

let url = "";
let close = async () => undefined as void;
let projectId = "";
let packetId = "";
let viewer: { id: string; token: string } = { id: "", token: "" };
let outsiderToken = "";

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: "mcp-http-test", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/api/v1/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

/** One raw initialize POST, to see the status and body a refusal answers with. */
function rawInitialize(headers: Record<string, string>, base = url): Promise<Response> {
  return fetch(`${base}/api/v1/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(INITIALIZE),
  });
}

async function expectRefusal(res: Response, status: number, code: number): Promise<void> {
  expect(res.status).toBe(status);
  const body = (await res.json()) as { jsonrpc: string; error: { code: number; message: string } };
  expect(body.jsonrpc).toBe("2.0");
  expect(body.error.code).toBe(code);
  expect(body.error.message).not.toMatch(/\n\s+at /);
}

beforeAll(async () => {
  enterTeamMode();
  await accountWithToken("admin@example.com"); // the first account: instance admin
  const v = await accountWithToken("viewer@example.com");
  viewer = { id: v.id, token: v.token };
  outsiderToken = (await accountWithToken("outsider@example.com")).token;
  ({ projectId } = await indexFolder(copySampleProject()));
  await setMember(projectId, viewer.id, "viewer");
  packetId = (await createProjectPacket(projectId, { kind: "brief", author: "admin" })).id;
  ({ url, close } = await serveRoute({ POST }));
});

afterAll(async () => {
  await close();
  leaveTeamMode();
  removeTempDirs();
});

describe("MCP over HTTP, team mode", () => {
  it("serves tools, resources and prompts to a token, within the token's roles", async () => {
    const client = await connect(viewer.token);
    try {
      expect(client.getServerVersion()?.name).toBe("context-workbench");
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("load_context");
      const called = (await client.callTool({ name: "load_context", arguments: { project: projectId, query: "JIRA-123" } })) as CallToolResult;
      expect(called.isError).toBeFalsy();

      const { resources } = await client.listResources();
      const topic = `workbench://projects/${projectId}/topics/JIRA-123`;
      expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining([topic, `workbench://projects/${projectId}/packets/${packetId}`]));
      // The dashboard's page for the same thing, on the instance's public URL.
      expect(resources.find((r) => r.uri === topic)?._meta?.["workbench/dashboardUrl"]).toBe(`http://127.0.0.1:3999/projects/${projectId}/topics/JIRA-123`);
      const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
      expect(templates).toEqual(["workbench://projects/{project}/topics/{slug}", "workbench://projects/{project}/packets/{packet}", "workbench://projects/{project}/runs/{run}"]);

      const read = await client.readResource({ uri: topic });
      const content = read.contents[0] as { text: string; mimeType: string };
      expect(content.mimeType).toBe("text/markdown");
      expect(content.text).toBe((await loadContextForProject(projectId, "JIRA-123")).markdown);
      expect(content.text).toContain("UNTRUSTED-CONTENT:START");

      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["load_context_for_ticket", "build_context_loader_pack", "pack_subagent_brief"]);
      const prompt = await client.getPrompt({ name: "pack_subagent_brief", arguments: { project: projectId, task: "Add retries to the webhook sender", topic: "JIRA-123" } });
      const text = (prompt.messages[0]!.content as { text: string }).text;
      for (const tool of ["load_context", "validate_packet", "draft_packet", "request_review", "get_handoff"]) expect(text).toContain(`\`${tool}\``);
    } finally {
      await client.close();
    }
  });

  it("answers a project the token cannot see exactly as a missing one", async () => {
    const client = await connect(outsiderToken);
    try {
      expect((await client.listResources()).resources).toEqual([]);
      for (const uri of [`workbench://projects/${projectId}/topics/JIRA-123`, "workbench://projects/no-such-project/topics/JIRA-123"]) {
        await expect(client.readResource({ uri })).rejects.toMatchObject({ code: RESOURCE_NOT_FOUND, message: expect.stringContaining(`Resource not found: ${uri}`) });
      }
    } finally {
      await client.close();
    }
  });

  it("refuses a request without a token, with a session cookie only, or with a revoked token (401)", async () => {
    await expectRefusal(await rawInitialize({}), 401, MCP_HTTP_ERRORS.unauthenticated);
    await expectRefusal(await rawInitialize({ cookie: "workbench.session_token=forged.forged" }), 401, MCP_HTTP_ERRORS.unauthenticated);
    const second = await createToken(viewer.id, { name: "revoked soon" });
    expect((await rawInitialize({ authorization: `Bearer ${second.token}` })).status).toBe(200);
    await revokeToken(viewer.id, second.id);
    await expectRefusal(await rawInitialize({ authorization: `Bearer ${second.token}` }), 401, MCP_HTTP_ERRORS.unauthenticated);
  });

  it("refuses a browser request from another site's page, token or not (403), and serves no GET stream (405)", async () => {
    await expectRefusal(await rawInitialize({ authorization: `Bearer ${viewer.token}`, origin: "https://evil.example" }), 403, MCP_HTTP_ERRORS.forbidden);
    await expectRefusal(await rawInitialize({ authorization: `Bearer ${viewer.token}`, "sec-fetch-site": "cross-site" }), 403, MCP_HTTP_ERRORS.forbidden);
    expect((await fetch(`${url}/api/v1/mcp`, { headers: { accept: "text/event-stream", authorization: `Bearer ${viewer.token}` } })).status).toBe(405);
  });
});

describe("MCP over HTTP, local mode", () => {
  beforeAll(leaveTeamMode);
  afterAll(() => enterTeamMode());

  it("serves loopback without a token and refuses another Host name (DNS rebinding)", async () => {
    expect((await rawInitialize({})).status).toBe(200);
    const rebound = await POST(
      new Request("http://attacker.example:3000/api/v1/mcp", {
        method: "POST",
        headers: { host: "attacker.example:3000", "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(INITIALIZE),
      }),
    );
    await expectRefusal(rebound, 403, MCP_HTTP_ERRORS.forbidden);
  });

  it("names a draft made without a token by its transport", async () => {
    const client = new Client({ name: "mcp-http-local", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/api/v1/mcp`)));
    try {
      const r = (await client.callTool({ name: "draft_packet", arguments: { project: projectId, kind: "brief", markdown: "# Agent Brief\n" } })) as CallToolResult;
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      const drafted = (r.structuredContent as { packet: string }).packet;
      const [revision] = await listRevisions(projectId, drafted);
      expect(revision).toMatchObject({ agentName: "local agent (HTTP)", agentTokenId: null });
    } finally {
      await client.close();
    }
  });
});
