import { runRoutes } from "@/lib/deep-context/schemas";
import { runForProject } from "@/lib/deep-context/service";
import { handle } from "../../../../_lib/handler";

export const dynamic = "force-dynamic";

/**
 * The run: convergence payload, host-loop replay, registry metrics, agreement, facets and
 * the first window of findings (the rest: `…/findings`). Events, iterations and the replay come
 * one window at a time (`events=<offset>`, `iterations=<offset>`; absent: the newest), with
 * their totals, so a run with a huge state log still answers in a small body.
 */
export const GET = handle(runRoutes.get, async ({ params: { id, runId }, query: { variant, events, iterations } }) => runForProject(id, runId, variant, { events, iterations }));
