import { taskEvaluations } from "@/lib/memory/desk";
import { memoryRoutes } from "@/lib/memory/schemas";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

/** Each checkpoint evaluated as `workbench policy evaluate` would: a PolicyDecision v1, or a GoalDecision v2 for a GoalCheckpoint under a goal policy (`decisionJson` holds the exact bytes). */
export const GET = handle(memoryRoutes.tasks, async ({ params: { id } }) => ({ tasks: await taskEvaluations(id) }));
