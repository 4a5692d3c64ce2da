import { getProjectHead } from "@/lib/db/repositories/projects";
import { listTopics } from "@/lib/db/repositories/topics";
import { inventoryRoutes } from "@/lib/inventory/schemas";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

/** The topic inventory, most recently updated first, filtered and paginated. */
export const GET = handle(inventoryRoutes.topics, async ({ params: { id }, query }) => {
  await getProjectHead(id);
  return listTopics(id, query);
});
