import { deleteProject, getProject } from "@/lib/projects/service";
import { removeRemoteCheckout } from "@/lib/projects/remote-projects";
import { projectRoutes } from "@/lib/projects/schemas";
import { handle } from "../../_lib/handler";

export const dynamic = "force-dynamic";

export const GET = handle(projectRoutes.get, async ({ params }) => ({ project: await getProject(params.id) }));

/** Removes the indexed data; the repository on disk is never written (a remote's checkout is ours and goes too). */
export const DELETE = handle(projectRoutes.remove, async ({ params: { id } }) => {
  const project = await getProject(id);
  await deleteProject(id);
  removeRemoteCheckout(project);
});
