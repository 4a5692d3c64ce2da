import { NextResponse } from "next/server";
import { z } from "zod";
import { listRevisions, saveInput, saveProjectPacket } from "@/lib/packets/service";
import { actorName, readJson, projectRoute } from "../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), packetId: z.string().min(1).max(64).describe("packet id") });

export const GET = projectRoute<{ id: string; packetId: string }>("viewer", async (_req, p) => {
  const { id, packetId } = params.parse(p);
  return NextResponse.json({ revisions: await listRevisions(id, packetId) });
});

/** Every save is a revision; 409 when someone saved since `baseNumber`. */
export const POST = projectRoute<{ id: string; packetId: string }>("editor", async (req, p, ctx) => {
  const { id, packetId } = params.parse(p);
  const input = await readJson(req, saveInput);
  return NextResponse.json(await saveProjectPacket(id, packetId, { ...input, author: actorName(ctx, input.author) }), { status: 201 });
});
