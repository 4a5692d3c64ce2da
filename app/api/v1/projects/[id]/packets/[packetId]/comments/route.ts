import { commentOnPacket, packetComments } from "@/lib/collab/service";
import { reviewRoutes } from "@/lib/collab/schemas";
import { actorName } from "../../../../../_lib/respond";
import { handle } from "../../../../../_lib/handler";

export const dynamic = "force-dynamic";

export const GET = handle(reviewRoutes.comments, async ({ params: { id, packetId } }) => ({ comments: await packetComments(id, packetId) }));

/** A new thread (anchored to a section or a quoted range) or a reply (threadId). */
export const POST = handle(reviewRoutes.comment, async ({ params: { id, packetId }, body, principal }) => ({
  comment: await commentOnPacket(id, packetId, { ...body, author: actorName({ principal }, body.author) ?? body.author }),
}));
