import { NextResponse } from "next/server";
import { readiness } from "@/lib/ops/readiness";

export const dynamic = "force-dynamic";

/** Readiness: 200 when the database is reachable and migrated (and co-editing listens), 503 otherwise. */
export async function GET(): Promise<NextResponse> {
  const r = await readiness().catch(() => ({ status: "not_ready" as const, checks: { readiness: { ok: false, message: "the checks could not run" } } }));
  return NextResponse.json(r, { status: r.status === "ready" ? 200 : 503, headers: { "cache-control": "no-store" } });
}
