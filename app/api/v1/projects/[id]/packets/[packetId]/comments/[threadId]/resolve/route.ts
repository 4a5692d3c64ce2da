import { resolveThread } from "@/lib/collab/service";
import { reviewRoutes } from "@/lib/collab/schemas";
import { actorName } from "../../../../../../../_lib/respond";
import { handle } from "../../../../../../../_lib/handler";

export const dynamic = "force-dynamic";

export const POST = handle(reviewRoutes.resolve, async ({ params: { id, packetId, threadId }, body, principal }) => ({
  comments: await resolveThread(id, packetId, threadId, { ...body, actor: actorName({ principal }, body.actor) ?? body.actor }),
}));
