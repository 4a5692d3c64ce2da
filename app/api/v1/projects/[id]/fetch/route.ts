import { warmRunViews } from "@/lib/deep-context/service";
import { fetchProject } from "@/lib/projects/remote-projects";
import { projectRoutes } from "@/lib/projects/schemas";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

/** Fetches a remote project now; `job` is the index job started when HEAD moved, else null. */
export const POST = handle(projectRoutes.fetch, async ({ params: { id } }) => fetchProject(id, { afterSuccess: () => warmRunViews(id) }));
