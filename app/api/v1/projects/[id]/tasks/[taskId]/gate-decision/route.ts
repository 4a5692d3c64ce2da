import { NextResponse } from "next/server";
import { z } from "zod";
import { requireSigningKey } from "@/lib/auth/access";
import { decideGoalGate } from "@/lib/memory/desk";
import { gateDecisionInput } from "@/lib/memory/goal-gate";
import { readJson, projectRoute } from "../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), taskId: z.string().min(1).max(200).describe("task id of the GoalCheckpoint") });

/** A signed human decision at a goal gate, appended to the GoalCheckpoint's task; the key's secret never leaves the server. */
export const POST = projectRoute<{ id: string; taskId: string }>("approver", async (req, p, ctx) => {
  const { id, taskId } = params.parse(p);
  const input = await readJson(req, gateDecisionInput);
  await requireSigningKey(ctx.principal, input.keyId);
  return NextResponse.json(await decideGoalGate(id, decodeURIComponent(taskId), input));
});
