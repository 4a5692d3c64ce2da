import { NextResponse } from "next/server";
import { z } from "zod";
import { requireSigningKey } from "@/lib/auth/access";
import { decideProposal, decisionInput } from "@/lib/memory/desk";
import { readJson, projectRoute } from "../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), proposalId: z.string().min(1).max(64).describe("proposal id (lowercase uuid)") });

/** A signed human decision (approve / decline / revise), written into the proposal file; the key's secret never leaves the server. */
export const POST = projectRoute<{ id: string; proposalId: string }>("approver", async (req, p, ctx) => {
  const { id, proposalId } = params.parse(p);
  const input = await readJson(req, decisionInput);
  await requireSigningKey(ctx.principal, input.keyId);
  return NextResponse.json({ proposal: await decideProposal(id, proposalId, input) });
});
