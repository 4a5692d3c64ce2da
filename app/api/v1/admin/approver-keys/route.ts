import { NextResponse } from "next/server";
import { z } from "zod";
import { requireInstanceAdmin } from "@/lib/auth/access";
import { WorkbenchError } from "@/lib/core/errors";
import { bindApproverKey, findAccountByEmail, listApproverKeyBindings } from "@/lib/db/repositories/accounts";
import { loadHumanKeys } from "@/lib/memory/keys";
import { readJson, requireAccount, route } from "../../_lib/respond";

export const dynamic = "force-dynamic";
const bindInput = z.object({
  keyId: z.string().min(1).max(200).describe("a key id loaded on this server (never its secret)"),
  email: z.email().max(254).describe("the approver's account"),
});

/** Loaded key ids (never secrets) and which account each is bound to. */
export const GET = route(async (_req, _p, ctx) => {
  requireInstanceAdmin(requireAccount(ctx));
  let keyIds: string[] = [];
  let keyError: string | null = null;
  try {
    keyIds = loadHumanKeys().keyIds();
  } catch (e) {
    keyError = e instanceof WorkbenchError ? e.message : "The human keys cannot be read.";
  }
  return NextResponse.json({ keyIds, keyError, bindings: await listApproverKeyBindings() });
});

export const POST = route(async (req, _p, ctx) => {
  requireInstanceAdmin(requireAccount(ctx));
  const input = await readJson(req, bindInput);
  const account = await findAccountByEmail(input.email);
  if (!account) throw new WorkbenchError("NOT_FOUND", `No account for ${input.email}.`);
  await bindApproverKey(input.keyId, account.id);
  return NextResponse.json({ bindings: await listApproverKeyBindings() }, { status: 201 });
});
