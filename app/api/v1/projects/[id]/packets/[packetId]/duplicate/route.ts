import { packetRoutes } from "@/lib/packets/schemas";
import { duplicateProjectPacket } from "@/lib/packets/service";
import { actorName } from "../../../../../_lib/respond";
import { handle } from "../../../../../_lib/handler";

export const dynamic = "force-dynamic";

export const POST = handle(packetRoutes.duplicate, async ({ params: { id, packetId }, body, principal }) => ({
  packet: await duplicateProjectPacket(id, packetId, actorName({ principal }, body.author)),
}));
