/**
 * Who calls the MCP server: the principal whose roles every tool, resource and prompt checks,
 * the personal access token an agent came with (HTTP in team mode; none over stdio), and the
 * Workbench's own URL when the transport knows it (links to the dashboard in results).
 */
import type { Principal } from "../auth/principal";

export interface McpCallerContext {
  principal: Principal;
  /** The personal access token the agent called with (HTTP transport); absent over stdio. */
  agent?: { tokenId: string; tokenName: string | null };
  /** The Workbench's public address, for links to the dashboard (absent over stdio). */
  baseUrl?: string;
}

export type McpContext = McpCallerContext;
