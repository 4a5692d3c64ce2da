import { NextResponse } from "next/server";
import { z } from "zod";
import { revokeToken } from "@/lib/db/repositories/tokens";
import { requireAccount, route } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ tokenId: z.string().min(1).max(64).describe("token id") });

export const DELETE = route<{ tokenId: string }>(async (_req, p, ctx) => {
  await revokeToken(requireAccount(ctx).userId, params.parse(p).tokenId);
  return new NextResponse(null, { status: 204 });
});
