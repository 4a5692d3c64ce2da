import { compareRun } from "@/lib/deep-context/service";
import { runRoutes } from "@/lib/deep-context/schemas";
import { handle } from "../../../../../_lib/handler";

export const dynamic = "force-dynamic";

/**
 * The run against a baseline: `?base=run:<id>|iter:<N>&changes=1&section&offset&limit`.
 * Counts and signals come whole; each list of units comes a window at a time.
 */
export const GET = handle(runRoutes.compare, async ({ params: { id, runId }, query }) => compareRun(id, runId, query));
