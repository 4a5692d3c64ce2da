import { NextResponse } from "next/server";
import { requireProjectRole } from "@/lib/auth/access";
import { isWorkbenchError, WorkbenchError } from "@/lib/core/errors";
import { packetProject } from "@/lib/packets/service";
import { handoffFormat } from "@/lib/packets/handoff-format";
import { packetRoutes } from "@/lib/packets/schemas";
import { handoffPacket } from "@/lib/packets/service";
import { handle, reply } from "../../_lib/handler";

export const dynamic = "force-dynamic";

/**
 * The handoff URL for the receiving agent: the emitted revision of the packet, as
 * markdown or as the seed's result object (?format=json, or Accept: application/json for
 * clients that negotiate instead). A packet never emitted answers its review state (409
 * NOT_EMITTED); 404 only when there is no such packet, or the caller may not see it.
 */
export const GET = handle(packetRoutes.handoff, async ({ req, params, query, principal }) => {
  const { packetId } = params;
  const format = handoffFormat(query.format, req.headers.get("accept"));
  // Access first, so a packet of a project the caller cannot see answers like a missing one.
  await requireProjectRole(principal, await packetProject(packetId), "viewer").catch((e: unknown) => {
    throw isWorkbenchError(e) && e.code === "NOT_FOUND" ? new WorkbenchError("NOT_FOUND", `No packet ${packetId}.`) : e;
  });
  const h = await handoffPacket(packetId);
  const headers = { "x-packet-revision": String(h.revision), "cache-control": "no-store", vary: "accept" };
  if (format === "json") return reply({ ...h.result, kind: h.packet.kind, revision: h.revision, title: h.packet.title }, { headers });
  return new NextResponse(h.markdown, { headers: { ...headers, "content-type": "text/markdown; charset=utf-8" } });
});
