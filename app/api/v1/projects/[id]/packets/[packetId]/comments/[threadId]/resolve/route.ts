import { NextResponse } from "next/server";
import { z } from "zod";
import { resolveInput, resolveThread } from "@/lib/collab/service";
import { readJson, route } from "../../../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), packetId: z.string().min(1).max(64).describe("packet id"), threadId: z.string().min(1).max(64).describe("thread id") });

export const POST = route<{ id: string; packetId: string; threadId: string }>(async (req, p) => {
  const { id, packetId, threadId } = params.parse(p);
  return NextResponse.json({ comments: await resolveThread(id, packetId, threadId, await readJson(req, resolveInput)) });
});
