import { NextResponse } from "next/server";
import { z } from "zod";
import { compareQuerySchema, compareRun } from "@/lib/deep-context/compare";
import { projectRoute, searchParams } from "../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), runId: z.string().min(1).max(64).describe("run id") });

/**
 * The run against a baseline: `?base=run:<id>|iter:<N>&changes=1&section&offset&limit`.
 * Counts and signals come whole; each list of units comes a window at a time.
 */
export const GET = projectRoute<{ id: string; runId: string }>("viewer", async (req, p) => {
  const { id, runId } = params.parse(p);
  return NextResponse.json(await compareRun(id, runId, compareQuerySchema.parse(searchParams(req))));
});
