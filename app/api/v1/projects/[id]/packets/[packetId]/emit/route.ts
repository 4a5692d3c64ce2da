import { packetRoutes } from "@/lib/packets/schemas";
import { emitProjectPacket } from "@/lib/packets/service";
import { handle } from "../../../../../_lib/handler";

export const dynamic = "force-dynamic";

/** Hands the latest revision off; 422 while a BLOCK finding stands. */
export const POST = handle(packetRoutes.emit, async ({ params: { id, packetId } }) => emitProjectPacket(id, packetId));
