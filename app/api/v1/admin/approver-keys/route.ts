import { accountRoutes } from "@/lib/auth/schemas";
import { WorkbenchError } from "@/lib/core/errors";
import { bindApproverKey, findAccountByEmail, listApproverKeyBindings } from "@/lib/auth/service";
import { loadHumanKeys } from "@/lib/memory/keys";
import { handle } from "../../_lib/handler";

export const dynamic = "force-dynamic";

/** Loaded key ids (never secrets) and which account each is bound to. */
export const GET = handle(accountRoutes.approverKeys, async () => {
  let keyIds: string[] = [];
  let keyError: string | null = null;
  try {
    keyIds = loadHumanKeys().keyIds();
  } catch (e) {
    keyError = e instanceof WorkbenchError ? e.message : "The human keys cannot be read.";
  }
  return { keyIds, keyError, bindings: await listApproverKeyBindings() };
});

export const POST = handle(accountRoutes.bindApproverKey, async ({ body }) => {
  const account = await findAccountByEmail(body.email);
  if (!account) throw new WorkbenchError("NOT_FOUND", `No account for ${body.email}.`);
  await bindApproverKey(body.keyId, account.id);
  return { bindings: await listApproverKeyBindings() };
});
