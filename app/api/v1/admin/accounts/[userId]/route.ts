import { NextResponse } from "next/server";
import { z } from "zod";
import { requireInstanceAdmin } from "@/lib/auth/access";
import { getAccount, setInstanceAdmin } from "@/lib/db/repositories/accounts";
import { readJson, requireAccount, route } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ userId: z.string().min(1).max(64).describe("account id") });
const patchInput = z.object({ isAdmin: z.boolean().describe("instance administrator or not") });

export const PATCH = route<{ userId: string }>(async (req, p, ctx) => {
  requireInstanceAdmin(requireAccount(ctx));
  const { userId } = params.parse(p);
  await setInstanceAdmin(userId, (await readJson(req, patchInput)).isAdmin);
  return NextResponse.json({ account: await getAccount(userId) });
});
