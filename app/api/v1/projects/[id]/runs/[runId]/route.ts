import { NextResponse } from "next/server";
import { z } from "zod";
import { runForProject } from "@/lib/deep-context/service";
import { route } from "../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), runId: z.string().min(1).max(64).describe("run id") });

/** The run: convergence payload, host-loop replay, registry metrics, agreement and findings. */
export const GET = route<{ id: string; runId: string }>(async (_req, p) => {
  const { id, runId } = params.parse(p);
  return NextResponse.json(await runForProject(id, runId));
});
