import { getProjectHead } from "@/lib/projects/service";
import { listTopics } from "@/lib/inventory/service";
import { inventoryRoutes } from "@/lib/inventory/schemas";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

/** The topic inventory, most recently updated first, filtered and paginated. */
export const GET = handle(inventoryRoutes.topics, async ({ params: { id }, query }) => {
  await getProjectHead(id);
  return listTopics(id, query);
});
