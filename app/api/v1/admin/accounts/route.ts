import { NextResponse } from "next/server";
import { requireInstanceAdmin } from "@/lib/auth/access";
import { createAccount, newAccountInput } from "@/lib/auth/accounts";
import { listAccounts } from "@/lib/db/repositories/accounts";
import { readJson, requireAccount, route } from "../../_lib/respond";

export const dynamic = "force-dynamic";

export const GET = route(async (_req, _p, ctx) => {
  requireInstanceAdmin(requireAccount(ctx));
  return NextResponse.json({ accounts: await listAccounts() });
});

/** Creates an account with an initial password (sign-up is closed by default in team mode). */
export const POST = route(async (req, _p, ctx) => {
  requireInstanceAdmin(requireAccount(ctx));
  return NextResponse.json({ account: await createAccount(await readJson(req, newAccountInput)) }, { status: 201 });
});
