import { NextResponse } from "next/server";
import { z } from "zod";
import { isWorkbenchError, WorkbenchError } from "@/lib/core/errors";
import { requireProjectRole } from "@/lib/auth/access";
import { getJob } from "@/lib/db/repositories/jobs";
import { route } from "../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("job id") });

export const GET = route<{ id: string }>(async (_req, p, ctx) => {
  const job = await getJob(params.parse(p).id);
  // A job of a project the caller cannot see is as missing as the project.
  await requireProjectRole(ctx.principal, job.projectId, "viewer").catch((e: unknown) => {
    throw isWorkbenchError(e) && e.code === "NOT_FOUND" ? new WorkbenchError("NOT_FOUND", "No such indexing job.") : e;
  });
  return NextResponse.json({ job });
});
