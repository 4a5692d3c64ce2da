import { requireSigningKey } from "@/lib/auth/access";
import { decideProposal } from "@/lib/memory/desk";
import { memoryRoutes } from "@/lib/memory/schemas";
import { handle } from "../../../../../_lib/handler";

export const dynamic = "force-dynamic";

/** A signed human decision (approve / decline / revise), written into the proposal file; the key's secret never leaves the server. */
export const POST = handle(memoryRoutes.decide, async ({ params: { id, proposalId }, body, principal }) => {
  await requireSigningKey(principal, body.keyId);
  return { proposal: await decideProposal(id, proposalId, body) };
});
