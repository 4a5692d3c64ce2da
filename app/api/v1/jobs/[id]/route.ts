import { requireProjectRole } from "@/lib/auth/access";
import { isWorkbenchError, WorkbenchError } from "@/lib/core/errors";
import { getJob } from "@/lib/projects/service";
import { projectRoutes } from "@/lib/projects/schemas";
import { handle } from "../../_lib/handler";

export const dynamic = "force-dynamic";

export const GET = handle(projectRoutes.job, async ({ params, principal }) => {
  const job = await getJob(params.id);
  // A job of a project the caller cannot see is as missing as the project.
  await requireProjectRole(principal, job.projectId, "viewer").catch((e: unknown) => {
    throw isWorkbenchError(e) && e.code === "NOT_FOUND" ? new WorkbenchError("NOT_FOUND", "No such indexing job.") : e;
  });
  return { job };
});
