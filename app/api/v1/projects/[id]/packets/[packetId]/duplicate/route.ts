import { NextResponse } from "next/server";
import { z } from "zod";
import { duplicateProjectPacket } from "@/lib/packets/service";
import { actorName, readJson, projectRoute } from "../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), packetId: z.string().min(1).max(64).describe("packet id") });
const body = z.object({ author: z.string().trim().max(80).nullable().default(null).describe("display name of whoever duplicates") });

export const POST = projectRoute<{ id: string; packetId: string }>("editor", async (req, p, ctx) => {
  const { id, packetId } = params.parse(p);
  const { author } = await readJson(req, body);
  return NextResponse.json({ packet: await duplicateProjectPacket(id, packetId, actorName(ctx, author)) }, { status: 201 });
});
