import { NextResponse } from "next/server";
import { createToken, newTokenInput } from "@/lib/auth/accounts";
import { WorkbenchError } from "@/lib/core/errors";
import { listTokens } from "@/lib/db/repositories/tokens";
import { readJson, requireAccount, route } from "../../_lib/respond";

export const dynamic = "force-dynamic";

/** The caller's personal access tokens (names and first characters only). */
export const GET = route(async (_req, _p, ctx) => NextResponse.json({ tokens: await listTokens(requireAccount(ctx).userId) }));

/** A new token for agents and the CLI; its value is in this response and nowhere else, ever. */
export const POST = route(async (req, _p, ctx) => {
  const { userId, via } = requireAccount(ctx);
  // A leaked token must not be able to outlive its revocation by minting others.
  if (via !== "session") throw new WorkbenchError("FORBIDDEN", "Tokens are created from a signed-in browser session, not with another token.");
  return NextResponse.json({ token: await createToken(userId, await readJson(req, newTokenInput)) }, { status: 201, headers: { "cache-control": "no-store" } });
});
