/**
 * The names of the MCP server's tools, as the server registers them. Their own module,
 * free of the SDK and of every service, because `workbench --help` names them and the CLI's
 * start loads only commander and the commands' descriptions (the MCP server takes about a
 * second to load). The server refuses to start when what it registered differs from this list
 * (`createWorkbenchMcpServer`), so the list cannot go stale.
 */
export const MCP_TOOL_NAMES = [
  "load_context",
  "context_loader_pack",
  "validate_packet",
  "run_convergence",
  "search",
  "evaluate_policy",
  "task_decisions",
  "draft_packet",
  "update_packet",
  "request_review",
  "get_handoff",
  "list_proposals",
  "get_memory",
  "evaluate_checkpoint",
  "list_runs",
  "get_findings",
] as const;

export type McpToolName = (typeof MCP_TOOL_NAMES)[number];

/** Why `registered` is not the list above (null when it is): names missing from either side. */
export function toolListMismatch(registered: readonly string[]): string | null {
  const listed = new Set<string>(MCP_TOOL_NAMES);
  const got = new Set(registered);
  const unlisted = registered.filter((n) => !listed.has(n));
  const missing = MCP_TOOL_NAMES.filter((n) => !got.has(n));
  const repeated = registered.filter((n, i) => registered.indexOf(n) !== i);
  if (unlisted.length + missing.length + repeated.length === 0) return null;
  return [
    unlisted.length ? `registered but not in lib/mcp/tool-names.ts: ${unlisted.join(", ")}` : "",
    missing.length ? `in lib/mcp/tool-names.ts but not registered: ${missing.join(", ")}` : "",
    repeated.length ? `registered twice: ${repeated.join(", ")}` : "",
  ]
    .filter(Boolean)
    .join("; ");
}
