import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { reviewPacket } from "../../collab/service";
import { actorName, agentStamp, packetProjectFor, type McpCallerContext } from "../context";
import { packetState, recordActivity, waitingOn } from "../packet-state";
import { guard, jsonResult } from "../result";
import { requestReviewToolInput, requestReviewToolOutput } from "../schemas";

export function registerRequestReviewTool(server: McpServer, ctx: McpCallerContext): void {
  server.registerTool(
    "request_review",
    {
      title: "Send a packet for review",
      description:
        "Moves a packet from draft (or changes requested) to in review, so a person with the approver role can approve it or ask for changes on the dashboard (needs the editor role, as POST …/packets/:id/review with request_review). Returns the review status and who it now waits on. Then call get_handoff with waitSeconds to wait for the decision.",
      inputSchema: requestReviewToolInput,
      outputSchema: requestReviewToolOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ packet, note }) =>
      guard(async () => {
        const projectId = await packetProjectFor(ctx, packet, "editor");
        const { packet: p } = await reviewPacket(projectId, packet, { action: "request_review", actor: actorName(ctx), note }, agentStamp(ctx));
        await recordActivity(ctx, "requested_review", p, p.headNumber, note);
        return jsonResult({ ...packetState(ctx, p), waitingOn: await waitingOn(projectId, p.reviewStatus) });
      }),
  );
}
