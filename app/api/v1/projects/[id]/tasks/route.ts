import { NextResponse } from "next/server";
import { z } from "zod";
import { taskEvaluations } from "@/lib/memory/desk";
import { projectRoute } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id") });

/** Each task checkpoint evaluated against the project's policy (PolicyDecision v1). */
export const GET = projectRoute<{ id: string }>("viewer", async (_req, p) => {
  const { id } = params.parse(p);
  return NextResponse.json({ tasks: await taskEvaluations(id) });
});
