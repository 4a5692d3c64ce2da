import { NextResponse } from "next/server";
import { z } from "zod";
import { getProject } from "@/lib/db/repositories/projects";
import { warmRunViews } from "@/lib/deep-context/service";
import { startIndexJob } from "@/lib/indexer/jobs";
import { projectRoute } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id") });
const query = z.object({ full: z.enum(["0", "1"]).optional().describe("1 re-reads every file instead of only changed ones") });

/** Starts a (re-)index; 202 with the job to poll at /api/v1/jobs/:id. */
export const POST = projectRoute<{ id: string }>("editor", async (req, p) => {
  const { id } = params.parse(p);
  const { full } = query.parse(Object.fromEntries(new URL(req.url).searchParams));
  await getProject(id);
  const job = await startIndexJob(id, { full: full === "1", afterSuccess: () => warmRunViews(id) });
  return NextResponse.json({ job }, { status: 202 });
});
