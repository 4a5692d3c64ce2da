/**
 * One verdict everywhere: for the same packet and task size, `workbench pack validate --json
 * [--task-tokens N]`, the API (POST /api/v1/packets/validate, and the validation a save
 * returns), the MCP tool validate_packet and the library the editor runs in the browser give
 * the same result: findings, tiers, seed lines, task size and whether it may be emitted.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as validateRoute } from "../../app/api/v1/packets/validate/route";
import { POST as createRoute } from "../../app/api/v1/projects/[id]/packets/route";
import { POST as saveRoute } from "../../app/api/v1/projects/[id]/packets/[packetId]/revisions/route";
import { createWorkbenchMcpServer } from "../../lib/mcp/server";
import type { ValidationResult } from "../../lib/packets";
import { validatePacket } from "../../lib/packets/validate";
import { addProject } from "../../lib/projects/add-project";
import { FIXTURES, makeTempDir, removeTempDirs } from "../helpers/project-builder";
import { runWorkbench } from "../helpers/run-cli";

afterAll(removeTempDirs);

const BASE = "http://127.0.0.1:3999";
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, "packets", name), "utf8");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wb-verdicts-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The clean packet without its Type Surface: the task size decides whether it may be emitted. */
const NO_TYPE_SURFACE = fixture("clean-packet.md").replace(/### Type Surface[^\n]*\n(?:- [^\n]*\n)+\n/, "");

const PACKETS: [name: string, markdown: string][] = [
  ["failing-packet.md", fixture("failing-packet.md")],
  ["reference-bug-brief.md", fixture("reference-bug-brief.md")],
  ["reference-good-packet.md", fixture("reference-good-packet.md")],
  ["no-type-surface.md", NO_TYPE_SURFACE],
];
const SIZES: (number | undefined)[] = [undefined, 120, 300];

const json = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("the same verdict from the CLI, the API, a save, the MCP tool and the library", { timeout: 180_000 }, () => {
  let client: Client;
  let projectId = "";

  beforeAll(async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createWorkbenchMcpServer().connect(serverSide);
    client = new Client({ name: "verdicts-test", version: "1.0.0" });
    await client.connect(clientSide);
    projectId = (await addProject({ path: makeTempDir() })).id;
  });

  afterAll(async () => {
    await client?.close();
  });

  it("the task size changes the verdict, and each surface reports it", () => {
    expect(validatePacket(NO_TYPE_SURFACE).emittable).toBe(false);
    expect(validatePacket(NO_TYPE_SURFACE, { taskTokens: 120 }).emittable).toBe(true);
    expect(validatePacket(NO_TYPE_SURFACE, { taskTokens: 300 }).emittable).toBe(false);
  });

  for (const [name, markdown] of PACKETS) {
    it(`${name}: identical results for a task size of ${SIZES.map((s) => s ?? "none").join(", ")}`, async () => {
      const file = path.join(tmp, name);
      fs.writeFileSync(file, markdown);
      for (const taskTokens of SIZES) {
        const lib = validatePacket(markdown, { taskTokens });
        expect(lib).toMatchObject({ task_tokens_source: taskTokens === undefined ? "packet" : "caller" });

        const cli = await runWorkbench(["pack", "validate", file, "--json", ...(taskTokens === undefined ? [] : ["--task-tokens", String(taskTokens)])], {
          env: process.env,
        });
        expect(cli.code, cli.stderr).toBe(lib.emittable ? 0 : 1);
        expect(JSON.parse(cli.stdout)).toEqual(lib);

        const api = await validateRoute(new Request(`${BASE}/api/v1/packets/validate`, json({ markdown, taskTokens })), { params: Promise.resolve({}) });
        expect(api.status).toBe(200);
        expect(await api.json()).toEqual(lib);

        const mcp = (await client.callTool({ name: "validate_packet", arguments: { markdown, ...(taskTokens === undefined ? {} : { taskTokens }) } })) as CallToolResult;
        expect(mcp.isError).toBeFalsy();
        expect(mcp.structuredContent).toEqual(lib);

        // A save through the API validates on the server with the size saved, and records the verdict.
        const created = await createRoute(new Request(`${BASE}/api/v1/projects/${projectId}/packets`, json({ kind: "packet" })), { params: Promise.resolve({ id: projectId }) });
        const packetId = ((await created.json()) as { packet: { id: string } }).packet.id;
        const saved = await saveRoute(new Request(`${BASE}/api/v1/projects/${projectId}/packets/${packetId}/revisions`, json({ markdown, taskTokens: taskTokens ?? null, baseNumber: 1 })), {
          params: Promise.resolve({ id: projectId, packetId }),
        });
        expect(saved.status).toBe(201);
        const body = (await saved.json()) as { validation: ValidationResult; packet: { taskTokens: number | null; head: { blockCount: number; warnCount: number } } };
        expect(body.validation).toEqual(lib);
        expect(body.packet.taskTokens).toBe(taskTokens ?? null);
        expect(body.packet.head).toMatchObject({ blockCount: lib.findings.filter((f) => f.tier === "BLOCK").length, warnCount: lib.findings.filter((f) => f.tier === "WARN").length });
      }
    });
  }

  it("refuses a task size that is not a whole number of tokens on every surface", async () => {
    const markdown = fixture("clean-packet.md");
    const api = await validateRoute(new Request(`${BASE}/api/v1/packets/validate`, json({ markdown, taskTokens: -1 })), { params: Promise.resolve({}) });
    expect(api.status).toBe(400);
    expect(((await api.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining("taskTokens") });
    const mcp = (await client.callTool({ name: "validate_packet", arguments: { markdown, taskTokens: 2.5 } })) as CallToolResult;
    expect(mcp.isError).toBe(true);
    const file = path.join(tmp, "clean.md");
    fs.writeFileSync(file, markdown);
    const cli = await runWorkbench(["pack", "validate", file, "--task-tokens", "2.5"], { env: process.env });
    expect(cli.code).toBe(2);
    expect(() => validatePacket(markdown, { taskTokens: 2.5 })).toThrow(expect.objectContaining({ code: "INVALID_INPUT" }));
  });
});
