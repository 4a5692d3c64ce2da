import { NextResponse } from "next/server";
import { z } from "zod";
import { decideProposal, decisionInput } from "@/lib/memory/desk";
import { readJson, route } from "../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), proposalId: z.string().min(1).max(64).describe("proposal id (lowercase uuid)") });

/** A signed human decision (approve / decline / revise), written into the proposal file; the key's secret never leaves the server. */
export const POST = route<{ id: string; proposalId: string }>(async (req, p) => {
  const { id, proposalId } = params.parse(p);
  return NextResponse.json({ proposal: await decideProposal(id, proposalId, await readJson(req, decisionInput)) });
});
