import { NextResponse } from "next/server";
import { visibleProjectIds } from "@/lib/auth/access";
import { jumpTargets } from "@/lib/db/repositories/palette";
import { route } from "../_lib/respond";

export const dynamic = "force-dynamic";

/** What the command palette can jump to: projects, topics, runs, packets and saved views. */
export const GET = route(async (_req, _p, ctx) => NextResponse.json(await jumpTargets(await visibleProjectIds(ctx.principal))));
