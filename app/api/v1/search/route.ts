import { NextResponse } from "next/server";
import { visibleProjectIds } from "@/lib/auth/access";
import { searchQuerySchema } from "@/lib/search/schemas";
import { runSearch } from "@/lib/search/service";
import { route, searchParams } from "../_lib/respond";

export const dynamic = "force-dynamic";

/** Full-text search: `?q&project&kind&status&from&to&limit`, the best `limit` hits with snippets and facets. */
export const GET = route(async (req, _p, ctx) => {
  return NextResponse.json(await runSearch(searchQuerySchema.parse(searchParams(req)), await visibleProjectIds(ctx.principal)));
});
