import { requireSigningKey } from "@/lib/auth/access";
import { decideGoalGate } from "@/lib/memory/desk";
import { memoryRoutes } from "@/lib/memory/schemas";
import { handle } from "../../../../../_lib/handler";

export const dynamic = "force-dynamic";

/** A signed human decision at a goal gate, appended to the GoalCheckpoint's task; the key's secret never leaves the server. */
export const POST = handle(memoryRoutes.gateDecision, async ({ params: { id, taskId }, body, principal }) => {
  await requireSigningKey(principal, body.keyId);
  return decideGoalGate(id, decodeURIComponent(taskId), body);
});
