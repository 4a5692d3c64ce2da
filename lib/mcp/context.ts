/**
 * Who calls the MCP server. The stdio server (`workbench mcp`) runs as the local person with no
 * token; the HTTP transport passes the token's principal and the token itself. Every tool checks
 * the same role on the project as the matching API route, with this principal.
 */
import { requireProjectRole } from "../auth/access";
import { LOCAL_PRINCIPAL, type Principal } from "../auth/principal";
import type { Role } from "../auth/roles";
import { isWorkbenchError, WorkbenchError } from "../core/errors";
import type { AgentStamp } from "../db/dto";
import { packetProjectOrNull } from "../db/repositories/packets";

export interface McpCallerContext {
  principal: Principal;
  /** The personal access token the agent called with (HTTP transport); absent over stdio. */
  agent?: { tokenId: string; tokenName: string | null };
  /** The Workbench's public address, for links to the dashboard in tool results (absent: paths only). */
  baseUrl?: string;
  /** How the agent reached the server; names a write made without a token (stdio when absent). */
  transport?: "stdio" | "http";
}

/** `workbench mcp`: the one local person, no token. */
export const STDIO_CONTEXT: McpCallerContext = { principal: LOCAL_PRINCIPAL };

/** What a write made without a token is attributed to (stdio, or HTTP in local mode): there is no token to name it by. */
export const STDIO_AGENT_NAME = "stdio agent";
export const LOCAL_HTTP_AGENT_NAME = "local agent (HTTP)";

/** The agent as revisions, review events and the activity list record it. */
export function agentStamp(ctx: McpCallerContext): AgentStamp {
  if (!ctx.agent) return { tokenId: null, name: ctx.transport === "http" ? LOCAL_HTTP_AGENT_NAME : STDIO_AGENT_NAME };
  return { tokenId: ctx.agent.tokenId, name: ctx.agent.tokenName?.trim() || `token ${ctx.agent.tokenId.slice(0, 8)}` };
}

/** The person an agent acts for: the token's account, or "local". */
export function actorName(ctx: McpCallerContext): string {
  return ctx.principal.kind === "user" ? ctx.principal.name : "local";
}

/** A dashboard link: absolute when the server knows its address. */
export function dashboardUrl(ctx: McpCallerContext, pathname: string): string {
  return ctx.baseUrl ? new URL(pathname, ctx.baseUrl).toString() : pathname;
}

/** Whether the caller may read the server's disk by path (register a folder): local mode and instance admins, as POST /api/v1/projects. */
export const mayUsePaths = (ctx: McpCallerContext) => ctx.principal.kind === "local" || ctx.principal.isAdmin;

/** The caller's role on a project, or "No such project." when it cannot see it, as the API answers. */
export async function requireRole(ctx: McpCallerContext, projectId: string, need: Role): Promise<void> {
  await requireProjectRole(ctx.principal, projectId, need);
}

/**
 * The project of a packet the caller holds `need` on. A missing packet and one of a project the
 * caller cannot see answer alike (as GET /api/v1/packets/:id does).
 */
export async function packetProjectFor(ctx: McpCallerContext, packetId: string, need: Role): Promise<string> {
  const missing = () => new WorkbenchError("NOT_FOUND", `packet: no packet ${packetId}.`);
  const projectId = await packetProjectOrNull(packetId);
  if (!projectId) throw missing();
  try {
    await requireProjectRole(ctx.principal, projectId, need);
  } catch (e) {
    throw isWorkbenchError(e) && e.code === "NOT_FOUND" ? missing() : e;
  }
  return projectId;
}
