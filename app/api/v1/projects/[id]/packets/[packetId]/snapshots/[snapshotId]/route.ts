import { packetSnapshot } from "@/lib/collab/service";
import { reviewRoutes } from "@/lib/collab/schemas";
import { handle } from "../../../../../../_lib/handler";

export const dynamic = "force-dynamic";

export const GET = handle(reviewRoutes.getSnapshot, async ({ params: { id, packetId, snapshotId } }) => ({ snapshot: await packetSnapshot(id, packetId, snapshotId) }));
