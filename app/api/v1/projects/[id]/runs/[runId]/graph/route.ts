import { runRoutes } from "@/lib/deep-context/schemas";
import { runGraphDrawing } from "@/lib/deep-context/service";
import { handle } from "../../../../../_lib/handler";

export const dynamic = "force-dynamic";

/** The coverage graph to draw (at most the best-connected 600 nodes), fetched when the graph scrolls into view. */
export const GET = handle(runRoutes.graph, async ({ params: { id, runId } }) => runGraphDrawing(id, runId));
