/**
 * What the packet tools answer about a packet, who it waits on, and the activity they record.
 */
import { isTeamMode } from "../auth/config";
import { roleAtLeast } from "../auth/roles";
import { recordAgentActivity } from "../collab/activity";
import type { AgentAction } from "../db/dto";
import { listMembers } from "../db/repositories/accounts";
import type { PacketDto } from "../db/repositories/packets";
import type { ValidationResult } from "../packets/types";
import { actorName, agentStamp, dashboardUrl, type McpCallerContext } from "./context";

export function packetState(ctx: McpCallerContext, p: PacketDto) {
  return {
    packet: p.id,
    projectId: p.projectId,
    title: p.title,
    kind: p.kind,
    revision: p.headNumber,
    reviewStatus: p.reviewStatus,
    url: dashboardUrl(ctx, `/projects/${encodeURIComponent(p.projectId)}/packets/${encodeURIComponent(p.id)}`),
  };
}

export function validationState(v: ValidationResult) {
  return { emittable: v.emittable, completeness: v.completeness, token_estimate: v.token_estimate, warnings: v.warnings, findings: v.findings };
}

/** Who a packet in `status` waits on, in words an agent can act on; null once approved. */
export async function waitingOn(projectId: string, status: string): Promise<string | null> {
  switch (status) {
    case "approved":
      return null;
    case "in_review": {
      if (!isTeamMode()) return "a reviewer: someone approves it or requests changes on the dashboard";
      const approvers = (await listMembers(projectId)).filter((m) => roleAtLeast(m.role, "approver")).map((m) => m.name);
      return approvers.length > 0
        ? `a reviewer with the approver role on the project (${approvers.join(", ")}), or an instance administrator`
        : "a reviewer: no member of the project holds the approver role yet, so an instance administrator must approve it or grant the role";
    }
    case "changes_requested":
      return "an editor (you, or a person): revise it as the reviewer's note says, save with update_packet, then request_review again";
    default:
      return "an editor (you, or a person): call request_review once the text is ready";
  }
}

export async function recordActivity(ctx: McpCallerContext, action: AgentAction, p: Pick<PacketDto, "id" | "projectId">, revision: number | null, detail: string | null): Promise<void> {
  await recordAgentActivity({ projectId: p.projectId, packetId: p.id, agent: agentStamp(ctx), actor: actorName(ctx), action, revision, detail: detail?.slice(0, 500) ?? null });
}
