import { packetRoutes } from "@/lib/packets/schemas";
import { listRevisions, saveProjectPacket } from "@/lib/packets/service";
import { actorName } from "../../../../../_lib/respond";
import { handle } from "../../../../../_lib/handler";

export const dynamic = "force-dynamic";

export const GET = handle(packetRoutes.revisions, async ({ params: { id, packetId } }) => ({ revisions: await listRevisions(id, packetId) }));

/** Every save is a revision; 409 when someone saved since `baseNumber`. */
export const POST = handle(packetRoutes.save, async ({ params: { id, packetId }, body, principal }) => saveProjectPacket(id, packetId, { ...body, author: actorName({ principal }, body.author) }));
