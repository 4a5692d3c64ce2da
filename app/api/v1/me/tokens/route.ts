import { createToken } from "@/lib/auth/accounts";
import { accountRoutes } from "@/lib/auth/schemas";
import { WorkbenchError } from "@/lib/core/errors";
import { listTokens } from "@/lib/auth/service";
import { requireAccount } from "../../_lib/respond";
import { handle, reply } from "../../_lib/handler";

export const dynamic = "force-dynamic";

/** The caller's personal access tokens (names and first characters only). */
export const GET = handle(accountRoutes.tokens, async ({ principal }) => ({ tokens: await listTokens(requireAccount({ principal }).userId) }));

/** A new token for agents and the CLI; its value is in this response and nowhere else, ever. */
export const POST = handle(accountRoutes.createToken, async ({ principal, body }) => reply({ token: await createToken(requireAccount({ principal }).userId, body) }, { headers: { "cache-control": "no-store" } }), {
  // A leaked token must not be able to outlive its revocation by minting others.
  guard: (principal) => {
    if (principal.kind === "user" && principal.via !== "session") throw new WorkbenchError("FORBIDDEN", "Tokens are created from a signed-in browser session, not with another token.");
  },
});
