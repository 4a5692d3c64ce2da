import { NextResponse } from "next/server";
import { z } from "zod";
import { taskEvaluations } from "@/lib/memory/desk";
import { projectRoute } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id") });

/** Each checkpoint evaluated as `workbench policy evaluate` would: a PolicyDecision v1, or a GoalDecision v2 for a GoalCheckpoint under a goal policy (`decisionJson` holds the exact bytes). */
export const GET = projectRoute<{ id: string }>("viewer", async (_req, p) => {
  const { id } = params.parse(p);
  return NextResponse.json({ tasks: await taskEvaluations(id) });
});
