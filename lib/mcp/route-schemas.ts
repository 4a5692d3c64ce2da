/**
 * The MCP endpoint in the API's contract, so the OpenAPI document and the API page list it. Its
 * handler is the SDK's Streamable HTTP transport (lib/mcp/http.ts), not `handle()`: the body is
 * JSON-RPC, answered as an event stream, and refusals are JSON-RPC error bodies.
 */
import { z } from "zod";
import { defineRoute } from "../core/contract";

const jsonRpcMessage = z
  .object({
    jsonrpc: z.literal("2.0").describe("always 2.0"),
    id: z.union([z.string(), z.number()]).optional().describe("the request's id; absent on a notification"),
    method: z.string().describe("initialize, tools/list, tools/call, resources/list, resources/templates/list, resources/read, prompts/list, prompts/get, completion/complete, ping, notifications/…"),
    params: z.object({}).loose().optional().describe("the method's parameters, as the Model Context Protocol defines them"),
  })
  .describe("one JSON-RPC message (or send an array of them)");

export const mcpRoutes = {
  mcp: defineRoute({
    id: "mcp",
    method: "POST",
    path: "/api/v1/mcp",
    tag: "mcp",
    summary: "The MCP server (tools, resources, prompts) over Streamable HTTP",
    description:
      "The same server as `workbench mcp` on stdio, for MCP clients: send `Accept: application/json, text/event-stream`. Stateless: no session id, no GET stream, no DELETE (both 405). Team mode needs a personal access token (`Authorization: Bearer wb_…`; a session cookie is not enough) and answers 401 without a valid one; a browser request from another site's page is 403; local mode serves loopback Host names only. Refusals are JSON-RPC error bodies (`{jsonrpc, error: {code, message}, id: null}`), and a tool's failure is a tool result with `isError`.",
    access: { kind: "signed-in" },
    body: jsonRpcMessage,
    response: {
      status: 200,
      description: "the JSON-RPC response(s) as server-sent events (202 with no body for notifications only)",
      text: { "text/event-stream": "`event: message` frames, each carrying one JSON-RPC response or notification" },
      also: { 202: "the body held notifications or responses only" },
    },
  }),
};
