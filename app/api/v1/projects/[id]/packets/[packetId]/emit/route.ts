import { packetRoutes } from "@/lib/packets/schemas";
import { emitProjectPacket } from "@/lib/packets/service";
import { handle } from "../../../../../_lib/handler";

export const dynamic = "force-dynamic";

/** Hands the approved revision off to the handoff URL; 422 before an approval, or while a BLOCK finding stands in it. */
export const POST = handle(packetRoutes.emit, async ({ params: { id, packetId } }) => emitProjectPacket(id, packetId));
