import { NextResponse } from "next/server";
import { queryStatsEnabled, queryTotal } from "@/lib/projects/service";

export const dynamic = "force-dynamic";

/**
 * SQL statements this server process has sent since it started, for the load benchmark's
 * "queries per page" (it reads the total before and after one request). Not found unless the
 * server runs with WORKBENCH_QUERY_STATS=1; touches no database.
 */
export function GET(): NextResponse {
  if (!queryStatsEnabled()) return NextResponse.json({ error: { code: "NOT_FOUND", message: "Query counting is off (WORKBENCH_QUERY_STATS=1)." } }, { status: 404 });
  return NextResponse.json({ queries: queryTotal() }, { headers: { "cache-control": "no-store" } });
}
