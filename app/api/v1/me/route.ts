import { NextResponse } from "next/server";
import { route } from "../_lib/respond";

export const dynamic = "force-dynamic";

/** Who the request is: `{mode:"local"}`, or the signed-in account and how it authenticated. */
export const GET = route(async (_req, _p, { principal }) => NextResponse.json(principal.kind === "local" ? { mode: "local" } : { mode: "team", account: principal }));
