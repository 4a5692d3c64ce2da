import { runRoutes } from "@/lib/deep-context/schemas";
import { runFindings } from "@/lib/deep-context/service";
import { handle } from "../../../../../_lib/handler";

export const dynamic = "force-dynamic";

/** One window of the run's findings: `?bucket&kind&executor&minAgreement&minRelevance&contradicted&q&sort&offset&limit`. */
export const GET = handle(runRoutes.findings, async ({ params: { id, runId }, query }) => runFindings(id, runId, query));
