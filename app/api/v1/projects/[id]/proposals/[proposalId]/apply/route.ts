import { applyApprovedProposal } from "@/lib/memory/desk";
import { memoryRoutes } from "@/lib/memory/schemas";
import { handle } from "../../../../../_lib/handler";

export const dynamic = "force-dynamic";

/** Appends the approved proposal's one event to .coord/memory.yml, after re-verifying its hash and signature. */
export const POST = handle(memoryRoutes.apply, async ({ params: { id, proposalId } }) => {
  const { event } = await applyApprovedProposal(id, proposalId);
  return { event };
});
