import { listAgentActivity } from "@/lib/collab/activity";
import { activityRoutes } from "@/lib/collab/schemas";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

/** What agents did through MCP, newest first: `?cursor&limit`. */
export const GET = handle(activityRoutes.list, async ({ params: { id }, query }) => listAgentActivity(id, query));
