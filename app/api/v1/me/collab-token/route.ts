import { issueCollabToken } from "@/lib/auth/collab-token";
import { readAuthConfig } from "@/lib/auth/config";
import { accountRoutes } from "@/lib/auth/schemas";
import { handle, reply } from "../../_lib/handler";

export const dynamic = "force-dynamic";

/**
 * A short-lived token for the co-editing socket (team mode); `{token:null}` in local mode, where
 * the socket needs none. The socket checks the role on each packet itself.
 */
export const GET = handle(accountRoutes.collabToken, async ({ principal }) => {
  const config = readAuthConfig();
  if (config.mode === "local" || principal.kind === "local") return { token: null, expiresAt: null };
  return reply(await issueCollabToken(config.secret, principal.userId), { headers: { "cache-control": "no-store" } });
});
