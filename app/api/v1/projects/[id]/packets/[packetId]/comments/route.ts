import { NextResponse } from "next/server";
import { z } from "zod";
import { commentInput, commentOnPacket, packetComments } from "@/lib/collab/service";
import { readJson, route } from "../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), packetId: z.string().min(1).max(64).describe("packet id") });

export const GET = route<{ id: string; packetId: string }>(async (_req, p) => {
  const { id, packetId } = params.parse(p);
  return NextResponse.json({ comments: await packetComments(id, packetId) });
});

/** A new thread (anchored to a section or a quoted range) or a reply (threadId). */
export const POST = route<{ id: string; packetId: string }>(async (req, p) => {
  const { id, packetId } = params.parse(p);
  return NextResponse.json({ comment: await commentOnPacket(id, packetId, await readJson(req, commentInput)) }, { status: 201 });
});
