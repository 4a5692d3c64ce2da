import { visibleProjectIds } from "@/lib/auth/access";
import { listProjects } from "@/lib/projects/service";
import { warmRunViews } from "@/lib/deep-context/service";
import { startIndexJob } from "@/lib/indexer/jobs";
import { addProject } from "@/lib/projects/add-project";
import { projectRoutes } from "@/lib/projects/schemas";
import { handle } from "../_lib/handler";

export const dynamic = "force-dynamic";

export const GET = handle(projectRoutes.list, async ({ principal }) => ({ projects: await listProjects(await visibleProjectIds(principal)) }));

/**
 * Registers a folder (or clones a remote) and starts indexing it; poll the returned job for
 * progress. Team mode: instance administrators only, since a path reads the server's disk.
 */
export const POST = handle(projectRoutes.add, async ({ body }) => {
  const project = await addProject(body);
  const job = await startIndexJob(project.id, { afterSuccess: () => warmRunViews(project.id) });
  return { project, job };
});
