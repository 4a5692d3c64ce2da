import { NextResponse } from "next/server";
import { z } from "zod";
import { requireProjectRole } from "@/lib/auth/access";
import { isWorkbenchError, WorkbenchError } from "@/lib/core/errors";
import { packetProject } from "@/lib/db/repositories/packets";
import { handoffFormat } from "@/lib/packets/handoff-format";
import { handoffPacket } from "@/lib/packets/service";
import { route, searchParams } from "../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ packetId: z.string().min(1).max(64).describe("packet id") });
const query = z.object({
  format: z.enum(["md", "json"]).optional().describe("md: the packet's markdown; json: the seed's {packet, token_estimate, completeness, warnings}; absent: the Accept header decides (markdown unless it prefers application/json)"),
});

/**
 * The handoff URL for the receiving agent: the emitted revision of the packet, as
 * markdown or as the seed's result object (?format=json, or Accept: application/json for
 * clients that negotiate instead). A packet never emitted is 404.
 */
export const GET = route<{ packetId: string }>(async (req, p, ctx) => {
  const { packetId } = params.parse(p);
  const format = handoffFormat(query.parse(searchParams(req)).format, req.headers.get("accept"));
  // Access first, so a packet of a project the caller cannot see answers like a missing one.
  await requireProjectRole(ctx.principal, await packetProject(packetId), "viewer").catch((e: unknown) => {
    throw isWorkbenchError(e) && e.code === "NOT_FOUND" ? new WorkbenchError("NOT_FOUND", `No packet ${packetId}.`) : e;
  });
  const h = await handoffPacket(packetId);
  const headers = { "x-packet-revision": String(h.revision), "cache-control": "no-store", vary: "accept" };
  if (format === "json") return NextResponse.json({ ...h.result, kind: h.packet.kind, revision: h.revision, title: h.packet.title }, { headers });
  return new NextResponse(h.markdown, { headers: { ...headers, "content-type": "text/markdown; charset=utf-8" } });
});
