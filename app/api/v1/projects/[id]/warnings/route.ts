import { getProjectHead } from "@/lib/db/repositories/projects";
import { listWarnings } from "@/lib/db/repositories/warnings";
import { projectRoutes } from "@/lib/projects/schemas";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

export const GET = handle(projectRoutes.warnings, async ({ params: { id } }) => {
  await getProjectHead(id);
  return { warnings: await listWarnings(id) };
});
