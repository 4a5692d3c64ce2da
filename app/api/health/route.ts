import { NextResponse } from "next/server";
import { health } from "@/lib/ops/readiness";

export const dynamic = "force-dynamic";

/** Liveness: 200 while the process serves requests; touches no database. */
export function GET(): NextResponse {
  return NextResponse.json(health(), { headers: { "cache-control": "no-store" } });
}
