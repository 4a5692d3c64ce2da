import { requireProjectRole } from "@/lib/auth/access";
import { isWorkbenchError, WorkbenchError } from "@/lib/core/errors";
import { cancelIndexJob } from "@/lib/indexer/jobs";
import { getJob } from "@/lib/projects/service";
import { projectRoutes } from "@/lib/projects/schemas";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

export const POST = handle(projectRoutes.cancelJob, async ({ params, principal }) => {
  const job = await getJob(params.id);
  // Whoever may start an index may stop one; a job of a project the caller cannot see is as missing as the project.
  await requireProjectRole(principal, job.projectId, "editor").catch((e: unknown) => {
    throw isWorkbenchError(e) && e.code === "NOT_FOUND" ? new WorkbenchError("NOT_FOUND", "No such indexing job.") : e;
  });
  return { job: await cancelIndexJob(job.id) };
});
