import type { Command } from "commander";

export function registerMcp(program: Command, _setCode: (c: number) => void): void {
  program
    .command("mcp")
    .description(
      "Serve the Workbench to agents over MCP on stdio (tools: load_context, context_loader_pack, validate_packet, run_convergence, search). Reads the same database as the dashboard; stdout carries only the protocol, logs go to stderr.",
    )
    .action(async () => {
      const { serveStdio } = await import("../../lib/mcp/server");
      await serveStdio();
    });
}
