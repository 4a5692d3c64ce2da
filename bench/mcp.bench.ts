/**
 * MCP over HTTP benchmark (a script, not a vitest suite), issue 20's measurements:
 *
 *   npx next build && npx tsx bench/mcp.bench.ts
 *
 * `workbench serve --sample` (production build, local mode, a fresh data folder), and the MCP
 * SDK's client over Streamable HTTP to POST /api/v1/mcp on loopback:
 *   - `tools/list` through the SDK client (which also compiles every tool's output schema) and
 *     as one raw JSON-RPC POST (the server's share), p50 / p95 of BENCH_RUNS (50) after 5 warm-ups;
 *   - a `draft_packet` round trip (stores a packet, validates it, records the agent's activity);
 *   - `get_handoff` with `waitSeconds` pending while a reviewer approves through the API (the
 *     dashboard's own route, in the same server process): the time from the approval's answer
 *     to the handoff's, and from the approval's request, median of BENCH_HANDOFFS (10).
 * Local mode has no token; a team token's check adds one verification per request.
 * Results go to bench/out/mcp.json.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { BENCH_DIR, envInt, median, quantile, result, resultsTable, writeResults, type BenchResult } from "./report";
import { requireBuild, startServer } from "./served-app";

const RUNS = Math.max(1, envInt("BENCH_RUNS", 50));
const HANDOFFS = Math.max(1, envInt("BENCH_HANDOFFS", 10));
const PORT = envInt("BENCH_PORT", 4620);
const log = (s = "") => process.stdout.write(s + "\n");

requireBuild(log);
const BRIEF = fs.readFileSync(path.join(path.dirname(BENCH_DIR), "tests", "fixtures", "packets", "clean-brief.md"), "utf8");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-mcp-bench-"));
const server = await startServer(PORT, dataDir, { args: ["--sample"], startTimeoutMs: 120_000 });
const endpoint = `${server.base}/api/v1/mcp`;
const results: BenchResult[] = [];

async function timed(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 5; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return times;
}
function report(label: string, times: number[]): void {
  results.push(result(`${label}: p50`, quantile(times, 0.5), "ms"));
  results.push(result(`${label}: p95`, quantile(times, 0.95), "ms"));
}
function structured<T>(r: unknown): T {
  const call = r as CallToolResult;
  if (call.isError) throw new Error(`tool error: ${JSON.stringify(call.content)}`);
  return call.structuredContent as T;
}

try {
  const projects = (await (await fetch(`${server.base}/api/v1/projects`)).json()) as { projects: { id: string }[] };
  const project = projects.projects[0]!.id;
  const client = new Client({ name: "mcp-bench", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));

  report("tools/list, SDK client", await timed(RUNS, () => client.listTools()));
  const rawList = () =>
    fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    }).then((r) => r.text());
  report("tools/list, one raw JSON-RPC POST", await timed(RUNS, rawList));
  report("draft_packet round trip", await timed(RUNS, () => client.callTool({ name: "draft_packet", arguments: { project, kind: "brief", markdown: BRIEF } })));

  const afterAnswer: number[] = [];
  const afterRequest: number[] = [];
  for (let i = 0; i < HANDOFFS; i++) {
    const drafted = structured<{ packet: string; revision: number }>(await client.callTool({ name: "draft_packet", arguments: { project, kind: "brief", markdown: BRIEF } }));
    structured(await client.callTool({ name: "request_review", arguments: { packet: drafted.packet } }));
    const waiting = client.callTool({ name: "get_handoff", arguments: { packet: drafted.packet, waitSeconds: 60 } }, undefined, { timeout: 90_000 }).then((r) => ({ r, at: performance.now() }));
    // The wait has to be registered on the server before the decision, or nothing is measured.
    await new Promise((r) => setTimeout(r, 300));
    const sent = performance.now();
    const res = await fetch(`${server.base}/api/v1/projects/${project}/packets/${drafted.packet}/review`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.base },
      body: JSON.stringify({ action: "approve", actor: "Bench Reviewer", revision: drafted.revision }),
    });
    const answered = performance.now();
    if (!res.ok) throw new Error(`approve answered ${res.status}: ${await res.text()}`);
    const { r, at } = await waiting;
    const handoff = structured<{ approved: boolean; markdown: string | null }>(r);
    if (!handoff.approved || !handoff.markdown) throw new Error(`get_handoff did not return the approved text: ${JSON.stringify(handoff).slice(0, 300)}`);
    afterAnswer.push(at - answered);
    afterRequest.push(at - sent);
  }
  results.push(result(`get_handoff after the approval's answer (median of ${HANDOFFS})`, median(afterAnswer), "ms"));
  results.push(result(`get_handoff after the approval's request (median of ${HANDOFFS})`, median(afterRequest), "ms"));
  await client.close();
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

log(resultsTable(results));
writeResults("mcp", results);
