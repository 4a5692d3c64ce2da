/**
 * What agents did in a project through MCP (drafted, updated, requested review, picked up a
 * handoff), for the activity list people read. Written by the MCP tools, never by the API.
 */
import type { z } from "zod";
import { getProjectHead } from "../db/repositories/projects";
import { listAgentActivity as listRows, recordAgentActivity, type NewAgentActivity } from "../db/repositories/agent-activity";
import type { AgentActivityDto } from "../db/dto";
import { activityQuery } from "./schemas";

export type { NewAgentActivity };
export { recordAgentActivity };

export async function listAgentActivity(projectId: string, raw: z.input<typeof activityQuery> = {}): Promise<{ activity: AgentActivityDto[]; nextCursor: string | null }> {
  const query = activityQuery.parse(raw);
  await getProjectHead(projectId);
  return listRows(projectId, query);
}
