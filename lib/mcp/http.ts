/**
 * The MCP server over Streamable HTTP (`POST /api/v1/mcp`), through the SDK's web-standard
 * transport. Stateless: each request gets its own server and transport for the caller it
 * authenticated, so any instance behind a load balancer answers any request and no session
 * outlives its token (a revoked token stops at the next request). Without sessions there is
 * no stream to open with GET or to end with DELETE: the route serves POST only, and the
 * framework answers those with 405, as the specification allows.
 *
 * Who may call: team mode needs a personal access token (`Authorization: Bearer wb_…`); a
 * session cookie alone is not enough, so a browser holding one cannot be made to call tools.
 * Local mode serves loopback names only (no DNS rebinding). In both modes a request a browser
 * sends from another site's page is refused.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { hostnameOf, isLoopbackHost, isTeamMode } from "../auth/config";
import { LOCAL_PRINCIPAL, tokenPrincipalFrom } from "../auth/principal";
import { addressedOrigin, isCrossSite } from "../auth/same-origin";
import { readEnv } from "../core/env";
import type { McpCallerContext } from "./context";
import { createWorkbenchMcpServer } from "./server";

/** JSON-RPC codes of the refusals (the server-defined range): the HTTP status says the same. */
export const MCP_HTTP_ERRORS = { unauthenticated: -32001, forbidden: -32003, internal: -32603 } as const;

function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
  });
}

const forbidden = (message: string) => rpcError(403, MCP_HTTP_ERRORS.forbidden, message);

/** Who calls, or the refusal to answer with. */
async function callerOf(req: Request, publicUrl: string | undefined): Promise<McpCallerContext | Response> {
  if (isCrossSite(req, publicUrl)) return forbidden("MCP requests from another site's pages are refused.");
  const baseUrl = publicUrl ?? addressedOrigin(req);
  if (!isTeamMode()) {
    const host = req.headers.get("host") ?? new URL(req.url).host;
    if (!isLoopbackHost(hostnameOf(host))) return forbidden("Local mode serves loopback only (127.0.0.1, localhost).");
    return { principal: LOCAL_PRINCIPAL, baseUrl, transport: "http" };
  }
  const caller = await tokenPrincipalFrom(req.headers);
  if (!caller) {
    return rpcError(401, MCP_HTTP_ERRORS.unauthenticated, "Send a valid personal access token as `Authorization: Bearer wb_…` (create one on /account); a session cookie is not enough for MCP.", {
      "www-authenticate": 'Bearer realm="workbench"',
    });
  }
  return { principal: caller.principal, agent: { tokenId: caller.token.id, tokenName: caller.token.name }, baseUrl, transport: "http" };
}

export async function handleMcpHttp(req: Request): Promise<Response> {
  try {
    const caller = await callerOf(req, readEnv("WORKBENCH_PUBLIC_URL"));
    if (caller instanceof Response) return caller;
    if (req.method !== "POST") return rpcError(405, -32000, "Method not allowed: this server is stateless, send JSON-RPC with POST.", { allow: "POST" });
    const server = createWorkbenchMcpServer(caller);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    // A client that goes away cancels what its request still runs (a handoff wait, an index).
    req.signal?.addEventListener("abort", () => void server.close(), { once: true });
    await server.connect(transport);
    return await transport.handleRequest(req);
  } catch (e) {
    process.stderr.write(`[workbench mcp] HTTP request failed: ${String((e as Error | undefined)?.stack ?? e)}\n`);
    return rpcError(500, MCP_HTTP_ERRORS.internal, "Something went wrong on the server.");
  }
}
