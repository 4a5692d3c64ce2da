import { getProjectHead } from "@/lib/projects/service";
import { listRuns } from "@/lib/deep-context/service";
import { runRoutes } from "@/lib/deep-context/schemas";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

export const GET = handle(runRoutes.list, async ({ params: { id } }) => {
  await getProjectHead(id);
  return { runs: await listRuns(id) };
});
