import { NextResponse } from "next/server";
import { z } from "zod";
import { runGraphDrawing } from "@/lib/deep-context/service";
import { projectRoute } from "../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), runId: z.string().min(1).max(64).describe("run id") });

/** The coverage graph to draw (at most the best-connected 600 nodes), fetched when the graph scrolls into view. */
export const GET = projectRoute<{ id: string; runId: string }>("viewer", async (_req, p) => {
  const { id, runId } = params.parse(p);
  return NextResponse.json(await runGraphDrawing(id, runId));
});
