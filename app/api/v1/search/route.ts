import { visibleProjectIds } from "@/lib/auth/access";
import { searchRoutes } from "@/lib/search/schemas";
import { runSearch } from "@/lib/search/service";
import { handle } from "../_lib/handler";

export const dynamic = "force-dynamic";

/** Full-text search: `?q&project&kind&status&from&to&limit`, the best `limit` hits with snippets and facets. */
export const GET = handle(searchRoutes.search, async ({ query, principal }) => runSearch(query, await visibleProjectIds(principal)));
