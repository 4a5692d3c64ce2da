import { getProject } from "@/lib/projects/service";
import { warmRunViews } from "@/lib/deep-context/service";
import { startIndexJob } from "@/lib/indexer/jobs";
import { projectRoutes } from "@/lib/projects/schemas";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

/** Starts a (re-)index; 202 with the job to poll at /api/v1/jobs/:id. */
export const POST = handle(projectRoutes.index, async ({ params: { id }, query }) => {
  await getProject(id);
  return { job: await startIndexJob(id, { full: query.full === "1", afterSuccess: () => warmRunViews(id) }) };
});
