import { accountRoutes } from "@/lib/auth/schemas";
import { getAccount, setInstanceAdmin } from "@/lib/auth/service";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

export const PATCH = handle(accountRoutes.setAdmin, async ({ params, body }) => {
  await setInstanceAdmin(params.userId, body.isAdmin);
  return { account: await getAccount(params.userId) };
});
