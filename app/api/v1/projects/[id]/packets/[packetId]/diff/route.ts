import { packetRoutes } from "@/lib/packets/schemas";
import { diffRevisions } from "@/lib/packets/service";
import { handle } from "../../../../../_lib/handler";

export const dynamic = "force-dynamic";

/** A unified diff (hunks) between two revisions. */
export const GET = handle(packetRoutes.diff, async ({ params: { id, packetId }, query: { from, to } }) => ({ diff: await diffRevisions(id, packetId, from, to) }));
