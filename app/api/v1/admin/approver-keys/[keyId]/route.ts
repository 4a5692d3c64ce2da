import { accountRoutes } from "@/lib/auth/schemas";
import { listApproverKeyBindings, unbindApproverKey } from "@/lib/auth/service";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

export const DELETE = handle(accountRoutes.unbindApproverKey, async ({ params }) => {
  await unbindApproverKey(params.keyId);
  return { bindings: await listApproverKeyBindings() };
});
