import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRuns } from "../../lib/db/repositories/runs";
import { inventoryMarkdown, loadContextForProject } from "../../lib/inventory/service";
import { createWorkbenchMcpServer } from "../../lib/mcp/server";
import { loaderForPath } from "../../lib/moc/service";
import { validatePacket } from "../../lib/packets/validate";
import type { SearchResult } from "../../lib/search/schemas";
import { runSearch } from "../../lib/search/service";
import { syncProjectSearch } from "../../lib/search/sync";
import { indexFolder } from "../helpers/db";
import { FIXTURES, REPO_ROOT, removeTempDirs } from "../helpers/project-builder";
import { buildSampleRepo } from "../helpers/sample-project";
import { runWorkbench } from "../helpers/run-cli";

const BIN = path.join(REPO_ROOT, "bin", "workbench.cjs");
const SPEC = path.join(".opencode", "specs", "z_future", "sqlite-to-turso");
const LOADER_PROMPT = "why are sessions stored server-side instead of JWTs?";
const TOOL_NAMES = [
  "context_loader_pack",
  "draft_packet",
  "evaluate_checkpoint",
  "evaluate_policy",
  "get_findings",
  "get_handoff",
  "get_memory",
  "list_proposals",
  "list_runs",
  "load_context",
  "request_review",
  "run_convergence",
  "search",
  "task_decisions",
  "update_packet",
  "validate_packet",
];

/** The test's own database (tests/db/setup.ts), so the server and the CLI read what this file indexed. */
function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "WORKBENCH_DEBUG") env[k] = v;
  return env;
}

const cli = (args: string[]) => runWorkbench(args, { env: childEnv() as NodeJS.ProcessEnv });

const text = (r: CallToolResult) => {
  const first = r.content[0];
  if (first?.type !== "text") throw new Error(`expected a text result, got ${JSON.stringify(r)}`);
  return first.text;
};

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function expectToolError(r: CallToolResult, message: RegExp): void {
  expect(r.isError, JSON.stringify(r)).toBe(true);
  expect(text(r)).toMatch(message);
  expect(text(r)).not.toMatch(/\n\s+at /); // no stack trace
}

afterAll(removeTempDirs);

let root: string;
let projectId: string;

beforeAll(async () => {
  root = (await buildSampleRepo()).targetDir;
  ({ projectId } = await indexFolder(root));
  // Idempotent: the search entries are current whether or not indexing already wrote them.
  await syncProjectSearch(projectId);
});

// Each test spawns the CLI (from source when dist/cli is stale): allow for a busy machine.
describe("workbench mcp over stdio (the SDK's client spawning the CLI)", { timeout: 120_000 }, () => {
  let client: Client;
  let transport: StdioClientTransport;
  let serverStderr = "";

  beforeAll(async () => {
    transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], cwd: REPO_ROOT, env: childEnv(), stderr: "pipe" });
    transport.stderr?.on("data", (d: Buffer) => (serverStderr += d.toString("utf8")));
    client = new Client({ name: "mcp-test", version: "1.0.0" });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
  });

  it("is described by the CLI's help with the tools it lists (issue 30: the help said 5)", async () => {
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    const help = await cli(["--help"]);
    expect(help.code).toBe(0);
    const summary = /^ {2}mcp +([\s\S]*?)\n {2}[a-z]/m.exec(help.stdout)?.[1]?.replace(/\s+/g, " ");
    expect(summary).toBe(`Serve the Workbench to agents over MCP on stdio (${names.length} tools; \`workbench mcp --help\` names them).`);
    const own = await cli(["mcp", "--help"]);
    expect(own.code).toBe(0);
    const listed = /with (\d+) tools: ([a-z_, ]+)\./.exec(own.stdout.replace(/\s+/g, " "));
    expect(Number(listed?.[1])).toBe(names.length);
    expect(listed?.[2]?.split(", ").sort()).toEqual(names);
  });

  it("lists the tools with input schemas from the zod schemas", async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual(TOOL_NAMES);
    const props = (name: string) => Object.keys((byName.get(name)!.inputSchema.properties ?? {}) as object).sort();
    expect(props("load_context")).toEqual(["project", "query"]);
    expect(byName.get("load_context")!.inputSchema.required).toEqual(["project"]);
    expect(props("context_loader_pack")).toEqual(["project", "prompt"]);
    expect(props("validate_packet")).toEqual(["markdown", "taskTokens"]);
    expect(byName.get("validate_packet")!.inputSchema.required).toEqual(["markdown"]);
    expect((byName.get("validate_packet")!.inputSchema.properties as Record<string, { description?: string }>).taskTokens!.description).toContain("task >= 300 tokens");
    expect(props("run_convergence")).toEqual(["project", "runId", "specFolder", "variant"]);
    expect(props("search")).toEqual(["from", "kind", "limit", "project", "q", "status", "to"]);
    expect(byName.get("search")!.inputSchema.required).toEqual(["q"]);
    expect(props("evaluate_policy")).toEqual(["checkpoint_json", "policy_json", "policy_name"]);
    expect(props("task_decisions")).toEqual(["project", "task_id"]);
    expect(props("draft_packet")).toEqual(["kind", "markdown", "project", "taskTokens", "title", "topic"]);
    expect(byName.get("draft_packet")!.inputSchema.required).toEqual(["project", "markdown"]);
    expect(props("update_packet")).toEqual(["baseRevision", "markdown", "note", "packet", "taskTokens"]);
    expect(props("get_handoff")).toEqual(["packet", "project", "topic", "waitSeconds"]);
    expect((byName.get("get_handoff")!.inputSchema.properties as Record<string, { maximum?: number }>).waitSeconds!.maximum).toBe(300);
    expect(props("evaluate_checkpoint")).toEqual(["checkpoint", "policy", "project"]);
    expect(props("get_findings")).toEqual(["bucket", "contradicted", "cursor", "executor", "kind", "limit", "minAgreement", "minRelevance", "project", "q", "run", "sort"]);
    // Descriptions and limits come through from the shared schemas.
    const prompt = (byName.get("context_loader_pack")!.inputSchema.properties as Record<string, { description?: string }>).prompt!;
    expect(prompt.description).toBe("the user's verbatim prompt; passed through unchanged");
    for (const name of ["validate_packet", "run_convergence", "search", "evaluate_policy", "task_decisions"]) expect(byName.get(name)!.outputSchema?.type).toBe("object");
    expect(Object.keys(byName.get("validate_packet")!.outputSchema!.properties ?? {})).toEqual(
      expect.arrayContaining(["packet", "token_estimate", "task_tokens", "task_tokens_source", "completeness", "warnings", "findings"]),
    );
  });

  it("load_context by project id is the library's markdown; the inventory without a query", async () => {
    const r = await call(client, "load_context", { project: projectId, query: "JIRA-123" });
    expect(r.isError).toBeFalsy();
    expect(text(r)).toBe((await loadContextForProject(projectId, "JIRA-123")).markdown);
    expect(text(r).split("\n")[0]).toBe("Context: JIRA-123");
    const inv = await call(client, "load_context", { project: projectId });
    expect(text(inv)).toBe(await inventoryMarkdown(projectId));
    expect(text(inv)).toContain("9 topics found across local sources.");
  });

  it("load_context by folder path prints exactly what `workbench load-context --project` prints", async () => {
    const viaCli = await cli(["load-context", "JIRA-123", "--project", root]);
    expect(viaCli.code).toBe(0);
    const r = await call(client, "load_context", { project: root, query: "JIRA-123" });
    expect(text(r)).toBe(viaCli.stdout);
  });

  it("context_loader_pack is `workbench loader`'s pack, by id or by path", async () => {
    const viaCli = await cli(["loader", "--project", root, LOADER_PROMPT]);
    expect(viaCli.code).toBe(0);
    expect(viaCli.stdout.startsWith("<!-- context-loader:v1 -->\n# Context pack\n\nTrivial: no\n")).toBe(true);
    const byId = await call(client, "context_loader_pack", { project: projectId, prompt: LOADER_PROMPT });
    expect(text(byId)).toBe(viaCli.stdout);
    expect(text(byId)).toBe((await loaderForPath(root, LOADER_PROMPT)).pack);
    const byPath = await call(client, "context_loader_pack", { project: root, prompt: LOADER_PROMPT });
    expect(text(byPath)).toBe(viaCli.stdout);
  });

  it("context_loader_pack and `workbench loader` give the same triviality verdict: the agent's model is trivial, a project's model is walked", async () => {
    for (const [prompt, head] of [
      ["Which Claude are you, exactly, and what version?", 'Trivial: yes\nReason: prompt is a meta-question about the agent ("Which Claude are you, exactly, and what version?")\n'],
      ["Can you tell me which model you're running on?", `Trivial: yes\nReason: prompt is a meta-question about the agent ("Can you tell me which model you're running on?")\n`],
      ["which model should the billing service use for retries?", "Trivial: no\n"],
    ] as const) {
      const viaCli = await cli(["loader", "--project", root, prompt]);
      expect(viaCli.stdout.startsWith(`<!-- context-loader:v1 -->\n# Context pack\n\n${head}`), viaCli.stdout).toBe(true);
      expect(text(await call(client, "context_loader_pack", { project: projectId, prompt }))).toBe(viaCli.stdout);
      expect((await loaderForPath(root, prompt)).pack).toBe(viaCli.stdout);
    }
  });

  it("validate_packet returns what `workbench pack validate --json` prints, as text and structured content", async () => {
    const file = path.join(FIXTURES, "packets", "failing-packet.md");
    const markdown = fs.readFileSync(file, "utf8");
    const viaCli = await cli(["pack", "validate", file, "--json"]);
    expect(viaCli.code).toBe(1); // a BLOCK finding: refused, but still a result
    const r = await call(client, "validate_packet", { markdown });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual(JSON.parse(viaCli.stdout));
    expect(JSON.parse(text(r))).toEqual(validatePacket(markdown));
    expect(r.structuredContent).toMatchObject({ packet: markdown, emittable: false, completeness: expect.any(String) });
    expect((r.structuredContent as { findings: unknown[] }).findings.length).toBeGreaterThan(0);
  });

  it("run_convergence by spec folder, and by project and run id, is `workbench converge --json`", async () => {
    const spec = path.join(root, SPEC);
    const viaCli = await cli(["converge", spec, "--json"]);
    expect(viaCli.code).toBe(0);
    const expected = JSON.parse(viaCli.stdout) as Record<string, unknown>;
    expect(expected.status).toBe("ok");
    const bySpec = await call(client, "run_convergence", { specFolder: spec });
    expect(bySpec.isError).toBeFalsy();
    expect(bySpec.structuredContent).toEqual(expected);
    expect(JSON.parse(text(bySpec))).toEqual(expected);

    const run = (await listRuns(projectId)).find((r) => r.loopType === "context");
    expect(run).toBeDefined();
    const byRun = await call(client, "run_convergence", { project: projectId, runId: run!.id });
    expect(byRun.structuredContent).toEqual(expected);

    const stored = await call(client, "run_convergence", { specFolder: spec, variant: "stored" });
    expect(stored.structuredContent).toEqual(JSON.parse((await cli(["converge", spec, "--json", "--variant", "stored"])).stdout));
  });

  it("search finds an indexed entry, with the same result as runSearch", async () => {
    const query = { q: "User Export", project: projectId, kind: "topic" };
    const r = await call(client, "search", query);
    expect(r.isError, JSON.stringify(r)).toBeFalsy();
    const found = r.structuredContent as unknown as SearchResult;
    expect(found.hits.map((h) => h.ref)).toContain("JIRA-123");
    expect(found.hits.every((h) => h.kind === "topic" && h.projectId === projectId)).toBe(true);
    expect(found.engine).toBe(/^postgres/.test(process.env.DATABASE_URL ?? "") ? "postgres-tsvector" : "sqlite-fts5");
    const direct = await runSearch(query);
    expect({ ...found, tookMs: 0 }).toEqual(JSON.parse(JSON.stringify({ ...direct, tookMs: 0 })));
    expect(JSON.parse(text(r))).toEqual(r.structuredContent);
  });

  it("bad input is a tool error naming the field, never a stack trace", async () => {
    expectToolError(await call(client, "load_context", { query: "JIRA-123" }), /project/);
    expectToolError(await call(client, "load_context", { project: path.join(root, "no-such-folder") }), /^project: there is no folder at /);
    expectToolError(await call(client, "load_context", { project: "nosuchid" }), /^project: no project has the id "nosuchid"/);
    expectToolError(await call(client, "load_context", { project: projectId, query: "   " }), /blank/);
    expectToolError(await call(client, "validate_packet", { markdown: 42 }), /markdown/);
    expectToolError(await call(client, "context_loader_pack", { project: projectId, prompt: "x".repeat(20_001) }), /prompt[\s\S]*20,000|20,000[\s\S]*prompt/);
    expectToolError(await call(client, "run_convergence", {}), /^specFolder: give a spec folder, or project and runId/);
    expectToolError(await call(client, "run_convergence", { project: projectId }), /^runId: give both project and runId/);
    expectToolError(await call(client, "run_convergence", { project: projectId, runId: "no-such-run" }), /^runId: .*no run "no-such-run"/);
    expectToolError(await call(client, "run_convergence", { specFolder: root }), /No deep-context packet in /);
    expectToolError(await call(client, "run_convergence", { specFolder: root, variant: "newest" }), /variant/);
    expectToolError(await call(client, "search", { q: "  " }), /type something to search for at q/);
    expectToolError(await call(client, "search", { q: "export", kind: "topic,nonsense" }), /unknown value "nonsense"[\s\S]* at kind/);
    // The server is still serving after the errors.
    expect((await client.listTools()).tools).toHaveLength(TOOL_NAMES.length);
    expect(serverStderr).not.toMatch(/\n\s+at /);
  });
});

describe("workbench mcp stdout", { timeout: 120_000 }, () => {
  it("carries only protocol messages, indexing included, and the server exits 0 when stdin closes", async () => {
    const child = spawn(process.execPath, [BIN, "mcp"], { cwd: REPO_ROOT, env: childEnv() as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    const send = (m: object) => child.stdin.write(JSON.stringify(m) + "\n");
    const responses = () =>
      stdout
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id?: number; result?: CallToolResult });
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
    await expect.poll(() => responses().some((m) => m.id === 1), { timeout: 60_000 }).toBe(true);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    // A folder the database has not seen yet: it is registered and indexed first.
    const fresh = (await buildSampleRepo()).targetDir;
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "load_context", arguments: { project: fresh, query: "JIRA-123" } } });
    await expect.poll(() => responses().some((m) => m.id === 2), { timeout: 60_000 }).toBe(true);
    const reply = responses().find((m) => m.id === 2)!;
    expect(text(reply.result!).split("\n")[0]).toBe("Context: JIRA-123");
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    child.stdin.end();
    expect(await exited).toBe(0);
    for (const line of stdout.split("\n").filter(Boolean)) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
  });
});

describe("the MCP server in process (in-memory transport)", () => {
  let client: Client;

  beforeAll(async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createWorkbenchMcpServer().connect(serverSide);
    client = new Client({ name: "mcp-test-in-memory", version: "1.0.0" });
    await client.connect(clientSide);
  });

  afterAll(async () => {
    await client?.close();
  });

  it("answers from the same database as the library", async () => {
    const r = await call(client, "load_context", { project: projectId, query: "authentication" });
    expect(text(r)).toBe((await loadContextForProject(projectId, "authentication")).markdown);
  });

  it("a clean brief validates as emittable", async () => {
    const markdown = fs.readFileSync(path.join(FIXTURES, "packets", "clean-brief.md"), "utf8");
    const r = await call(client, "validate_packet", { markdown });
    expect(r.structuredContent).toEqual({ ...validatePacket(markdown) });
    expect(r.structuredContent).toMatchObject({ kind: "brief", emittable: true });
  });

  it("an unreadable input is reported as a zod field error", async () => {
    expectToolError(await call(client, "validate_packet", {}), /markdown/);
  });
});
