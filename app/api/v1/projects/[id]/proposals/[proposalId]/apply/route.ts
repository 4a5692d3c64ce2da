import { NextResponse } from "next/server";
import { z } from "zod";
import { applyApprovedProposal } from "@/lib/memory/desk";
import { projectRoute } from "../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), proposalId: z.string().min(1).max(64).describe("proposal id (lowercase uuid)") });

/** Appends the approved proposal's one event to .coord/memory.yml, after re-verifying its hash and signature. */
export const POST = projectRoute<{ id: string; proposalId: string }>("approver", async (_req, p) => {
  const { id, proposalId } = params.parse(p);
  const { event } = await applyApprovedProposal(id, proposalId);
  return NextResponse.json({ event }, { status: 201 });
});
