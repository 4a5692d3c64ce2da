import { packetRoutes } from "@/lib/packets/schemas";
import { createProjectPacket, listPackets } from "@/lib/packets/service";
import { actorName } from "../../../_lib/respond";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

export const GET = handle(packetRoutes.list, async ({ params: { id }, query }) => ({ packets: await listPackets(id, { archived: query.archived === "1" }) }));

/** New packet or brief: from the kind's template, or from imported markdown. */
export const POST = handle(packetRoutes.create, async ({ params: { id }, body, principal }) => ({
  packet: await createProjectPacket(id, { ...body, author: actorName({ principal }, body.author) }),
}));
