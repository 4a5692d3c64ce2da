import { NextResponse } from "next/server";
import { z } from "zod";
import { requireInstanceAdmin } from "@/lib/auth/access";
import { listApproverKeyBindings, unbindApproverKey } from "@/lib/db/repositories/accounts";
import { requireAccount, route } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ keyId: z.string().min(1).max(200).describe("key id") });

export const DELETE = route<{ keyId: string }>(async (_req, p, ctx) => {
  requireInstanceAdmin(requireAccount(ctx));
  await unbindApproverKey(params.parse(p).keyId);
  return NextResponse.json({ bindings: await listApproverKeyBindings() });
});
