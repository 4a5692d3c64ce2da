import { ProjectFs } from "@/lib/core/project-fs";
import { getProject } from "@/lib/projects/service";
import { verifyEvidence } from "@/lib/deep-context/views";
import { runRoutes } from "@/lib/deep-context/schemas";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

/** Whether a finding's evidence still holds in the repository (verified / stale / missing). */
export const GET = handle(runRoutes.evidence, async ({ params, query }) => {
  const project = await getProject(params.id);
  return { check: await verifyEvidence(await ProjectFs.open(project.rootPath), query) };
});
