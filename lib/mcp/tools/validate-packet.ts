import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { validatePacket } from "../../packets/validate";
import { guard, jsonResult } from "../result";
import { validatePacketToolInput, validatePacketToolOutput } from "../schemas";

export function registerValidatePacketTool(server: McpServer): void {
  server.registerTool(
    "validate_packet",
    {
      title: "Validate a Context Packet or Agent Brief",
      description:
        "Runs the context-pack checks on a packet's or brief's markdown and returns what `workbench pack validate --json [--task-tokens N]` prints: the seed's {packet, token_estimate, completeness, warnings}, the task size the Type Surface gate used (task_tokens, task_tokens_source: caller or packet), every finding (rule, tier, line, column, suggestion, and seedRef: the seed line its tier comes from) and whether it may be emitted (no BLOCK finding). Give taskTokens, the delegated task's size, when you know it.",
      inputSchema: validatePacketToolInput,
      outputSchema: validatePacketToolOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ markdown, taskTokens }) => guard(async () => jsonResult(validatePacket(markdown, { taskTokens }))),
  );
}
