import { getProjectHead } from "@/lib/projects/service";
import { listWarnings } from "@/lib/projects/service";
import { projectRoutes } from "@/lib/projects/schemas";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

export const GET = handle(projectRoutes.warnings, async ({ params: { id } }) => {
  await getProjectHead(id);
  return { warnings: await listWarnings(id) };
});
