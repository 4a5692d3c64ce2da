import { NextResponse } from "next/server";
import { issueCollabToken } from "@/lib/auth/collab-token";
import { readAuthConfig } from "@/lib/auth/config";
import { route } from "../../_lib/respond";

export const dynamic = "force-dynamic";

/**
 * A short-lived token for the co-editing socket (team mode); `{token:null}` in local mode, where
 * the socket needs none. The socket checks the role on each packet itself.
 */
export const GET = route(async (_req, _p, { principal }) => {
  const config = readAuthConfig();
  if (config.mode === "local" || principal.kind === "local") return NextResponse.json({ token: null, expiresAt: null });
  return NextResponse.json(await issueCollabToken(config.secret, principal.userId), { headers: { "cache-control": "no-store" } });
});
