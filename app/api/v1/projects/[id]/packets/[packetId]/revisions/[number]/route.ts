import { packetRoutes } from "@/lib/packets/schemas";
import { getRevision } from "@/lib/packets/service";
import { handle } from "../../../../../../_lib/handler";

export const dynamic = "force-dynamic";

export const GET = handle(packetRoutes.revision, async ({ params: { id, packetId, number } }) => ({ revision: await getRevision(id, packetId, number) }));
