import { requireProjectRole } from "@/lib/auth/access";
import { reviewHistory, reviewPacket } from "@/lib/collab/service";
import { reviewRoutes } from "@/lib/collab/schemas";
import { actorName } from "../../../../../_lib/respond";
import { handle } from "../../../../../_lib/handler";

export const dynamic = "force-dynamic";

export const GET = handle(reviewRoutes.history, async ({ params: { id, packetId } }) => reviewHistory(id, packetId));

/**
 * A review transition: request_review, approve, request_changes, withdraw (409 when not allowed from
 * the current status). Editors send for review and withdraw; approving or asking for changes is a
 * reviewer's call, so it needs the approver role.
 */
export const POST = handle(reviewRoutes.act, async ({ params: { id, packetId }, body, principal }) => {
  if (body.action === "approve" || body.action === "request_changes") await requireProjectRole(principal, id, "approver");
  return reviewPacket(id, packetId, { ...body, actor: actorName({ principal }, body.actor) ?? body.actor });
});
