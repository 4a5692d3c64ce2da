import { NextResponse } from "next/server";
import { z } from "zod";
import { findingsQuerySchema } from "@/lib/deep-context/views";
import { runFindings } from "@/lib/deep-context/service";
import { projectRoute, searchParams } from "../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), runId: z.string().min(1).max(64).describe("run id") });

/** One window of the run's findings: `?bucket&kind&executor&minAgreement&minRelevance&contradicted&q&sort&offset&limit`. */
export const GET = projectRoute<{ id: string; runId: string }>("viewer", async (req, p) => {
  const { id, runId } = params.parse(p);
  return NextResponse.json(await runFindings(id, runId, findingsQuerySchema.parse(searchParams(req))));
});
