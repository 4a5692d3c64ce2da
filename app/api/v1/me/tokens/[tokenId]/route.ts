import { accountRoutes } from "@/lib/auth/schemas";
import { revokeToken } from "@/lib/auth/service";
import { requireAccount } from "../../../_lib/respond";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

export const DELETE = handle(accountRoutes.revokeToken, async ({ params, principal }) => {
  await revokeToken(requireAccount({ principal }).userId, params.tokenId);
});
