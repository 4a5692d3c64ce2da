import type { Command } from "commander";
import { MCP_TOOL_NAMES } from "../../lib/mcp/tool-names";

export function registerMcp(program: Command, _setCode: (c: number) => void): void {
  const tools = MCP_TOOL_NAMES.length;
  program
    .command("mcp")
    .summary(`Serve the Workbench to agents over MCP on stdio (${tools} tools; \`workbench mcp --help\` names them).`)
    .description(`Serve the Workbench to agents over MCP on stdio, with ${tools} tools: ${MCP_TOOL_NAMES.join(", ")}. Reads the same database as the dashboard; stdout carries only the protocol, logs go to stderr.`)
    .action(async () => {
      const { serveStdio } = await import("../../lib/mcp/server");
      await serveStdio();
    });
}
