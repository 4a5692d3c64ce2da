import { NextResponse } from "next/server";
import { z } from "zod";
import { commentInput, commentOnPacket, packetComments } from "@/lib/collab/service";
import { actorName, readJson, projectRoute } from "../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), packetId: z.string().min(1).max(64).describe("packet id") });

export const GET = projectRoute<{ id: string; packetId: string }>("viewer", async (_req, p) => {
  const { id, packetId } = params.parse(p);
  return NextResponse.json({ comments: await packetComments(id, packetId) });
});

/** A new thread (anchored to a section or a quoted range) or a reply (threadId). */
export const POST = projectRoute<{ id: string; packetId: string }>("editor", async (req, p, ctx) => {
  const { id, packetId } = params.parse(p);
  const input = await readJson(req, commentInput);
  return NextResponse.json({ comment: await commentOnPacket(id, packetId, { ...input, author: actorName(ctx, input.author) ?? input.author }) }, { status: 201 });
});
