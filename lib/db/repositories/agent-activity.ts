import { WorkbenchError } from "../../core/errors";
import { getDb } from "../client";
import { AGENT_ACTIONS, type AgentAction, type AgentActivityDto, type AgentStamp } from "../dto";

export interface NewAgentActivity {
  projectId: string;
  packetId: string | null;
  agent: AgentStamp;
  actor: string;
  action: AgentAction;
  revision: number | null;
  detail: string | null;
}

const actionOf = (a: string): AgentAction => ((AGENT_ACTIONS as readonly string[]).includes(a) ? (a as AgentAction) : "updated");

export async function recordAgentActivity(input: NewAgentActivity): Promise<void> {
  const db = await getDb();
  await db.agentActivity.create({
    data: {
      projectId: input.projectId,
      packetId: input.packetId,
      tokenId: input.agent.tokenId,
      agentName: input.agent.name,
      actor: input.actor,
      action: input.action,
      revision: input.revision,
      detail: input.detail,
    },
  });
}

/**
 * A project's agent activity, newest first, a page at a time. The cursor is the last row's id
 * of the page before: ties on createdAt are broken by id, so no row is skipped or repeated.
 */
export async function listAgentActivity(projectId: string, opts: { cursor?: string; limit: number }): Promise<{ activity: AgentActivityDto[]; nextCursor: string | null }> {
  const db = await getDb();
  let after: { createdAt: Date; id: string } | null = null;
  if (opts.cursor) {
    after = await db.agentActivity.findFirst({ where: { id: opts.cursor, projectId }, select: { createdAt: true, id: true } });
    if (!after) throw new WorkbenchError("INVALID_INPUT", "cursor: not a row of this project's activity; start again without a cursor.");
  }
  const rows = await db.agentActivity.findMany({
    where: { projectId, ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: opts.limit + 1,
  });
  const page = rows.slice(0, opts.limit);
  return {
    activity: page.map((r) => ({ ...r, action: actionOf(r.action), createdAt: r.createdAt.toISOString() })),
    nextCursor: rows.length > opts.limit ? page[page.length - 1]!.id : null,
  };
}
