import { packetRoutes } from "@/lib/packets/schemas";
import { getPacket, updateProjectPacket } from "@/lib/packets/service";
import { handle } from "../../../../_lib/handler";

export const dynamic = "force-dynamic";

export const GET = handle(packetRoutes.get, async ({ params: { id, packetId } }) => ({ packet: await getPacket(id, packetId) }));

/** Title, topic link, archive / restore. */
export const PATCH = handle(packetRoutes.update, async ({ params: { id, packetId }, body }) => ({ packet: await updateProjectPacket(id, packetId, body) }));
