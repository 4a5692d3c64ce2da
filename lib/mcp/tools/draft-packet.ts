import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { createProjectPacket, validatePacketText } from "../../packets/service";
import { actorName, agentStamp, type McpCallerContext } from "../context";
import { packetState, recordActivity, validationState } from "../packet-state";
import { projectFor } from "../project";
import { guard, jsonResult } from "../result";
import { draftPacketToolInput, draftPacketToolOutput } from "../schemas";

export function registerDraftPacketTool(server: McpServer, ctx: McpCallerContext): void {
  server.registerTool(
    "draft_packet",
    {
      title: "Draft a packet or brief",
      description:
        "Stores a new Context Packet or Agent Brief in a project for people to edit, review and approve on the dashboard (needs the editor role, as POST /api/v1/projects/:id/packets). Returns the packet id, its first revision, the dashboard URL, and what the context-pack checks found (findings, emittable). Next: update_packet to revise it, request_review when it is ready, get_handoff to pick up the approved text. The revision is recorded as made by this agent.",
      inputSchema: draftPacketToolInput,
      outputSchema: draftPacketToolOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ project, kind, markdown, title, topic, taskTokens }) =>
      guard(async () => {
        const { id: projectId } = await projectFor(ctx, project, "editor");
        const p = await createProjectPacket(projectId, { kind, markdown, title, topicSlug: topic, taskTokens, author: actorName(ctx) }, agentStamp(ctx));
        await recordActivity(ctx, "drafted", p, p.headNumber, p.title);
        return jsonResult({ ...packetState(ctx, p), ...validationState(validatePacketText({ markdown: p.markdown, taskTokens: p.taskTokens })) });
      }),
  );
}
