import { packetSnapshots, snapshotPacket } from "@/lib/collab/service";
import { reviewRoutes } from "@/lib/collab/schemas";
import { actorName } from "../../../../../_lib/respond";
import { handle } from "../../../../../_lib/handler";

export const dynamic = "force-dynamic";

export const GET = handle(reviewRoutes.snapshots, async ({ params: { id, packetId } }) => ({ snapshots: await packetSnapshots(id, packetId) }));

export const POST = handle(reviewRoutes.snapshot, async ({ params: { id, packetId }, body, principal }) => ({
  snapshot: await snapshotPacket(id, packetId, { ...body, author: actorName({ principal }, body.author) }),
}));
