import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { isWorkbenchError, WorkbenchError } from "../../core/errors";
import { getPacket, listRevisions, saveProjectPacket } from "../../packets/service";
import { actorName, agentStamp, packetProjectFor, type McpCallerContext } from "../context";
import { packetState, recordActivity, validationState } from "../packet-state";
import { guard, jsonResult } from "../result";
import { updatePacketToolInput, updatePacketToolOutput } from "../schemas";

/** The stale-base refusal, naming the revision that was saved since and who saved it. */
async function conflict(projectId: string, packetId: string, base: number): Promise<WorkbenchError> {
  const latest = (await listRevisions(projectId, packetId))[0];
  if (!latest || latest.number <= base) return new WorkbenchError("CONFLICT", `baseRevision: r${base} is not a revision of packet ${packetId}.`);
  const by = latest.agentName ? `${latest.author ?? "someone"} (agent ${latest.agentName})` : (latest.author ?? "someone");
  return new WorkbenchError(
    "CONFLICT",
    `baseRevision: the packet changed since r${base}: r${latest.number} is the latest, saved by ${by} at ${latest.createdAt}. Merge your change into r${latest.number} and call update_packet again with baseRevision ${latest.number}.`,
  );
}

export function registerUpdatePacketTool(server: McpServer, ctx: McpCallerContext): void {
  server.registerTool(
    "update_packet",
    {
      title: "Save a new revision of a packet",
      description:
        "Saves the packet's full markdown as a new revision (needs the editor role, as POST …/packets/:id/revisions). baseRevision is the revision your text starts from: when a person or another agent saved since, nothing is written and the error names the newer revision, to merge into and retry. Saving over an approved revision sends the packet back to draft: it needs review again. Returns the new revision, the review status, the dashboard URL and the checks' findings.",
      inputSchema: updatePacketToolInput,
      outputSchema: updatePacketToolOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ packet, markdown, baseRevision, note, taskTokens }) =>
      guard(async () => {
        const projectId = await packetProjectFor(ctx, packet, "editor");
        const current = await getPacket(projectId, packet);
        if (current.headNumber !== baseRevision) throw await conflict(projectId, packet, baseRevision);
        let saved;
        try {
          saved = await saveProjectPacket(projectId, packet, { markdown, baseNumber: baseRevision, note, taskTokens, author: actorName(ctx) }, agentStamp(ctx));
        } catch (e) {
          // Someone saved between the check above and the write.
          if (isWorkbenchError(e) && e.code === "CONFLICT") throw await conflict(projectId, packet, baseRevision);
          throw e;
        }
        await recordActivity(ctx, "updated", saved.packet, saved.packet.headNumber, note);
        return jsonResult({ ...packetState(ctx, saved.packet), ...validationState(saved.validation) });
      }),
  );
}
