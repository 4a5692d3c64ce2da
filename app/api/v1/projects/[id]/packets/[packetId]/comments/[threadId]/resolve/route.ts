import { NextResponse } from "next/server";
import { z } from "zod";
import { resolveInput, resolveThread } from "@/lib/collab/service";
import { actorName, readJson, projectRoute } from "../../../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), packetId: z.string().min(1).max(64).describe("packet id"), threadId: z.string().min(1).max(64).describe("thread id") });

export const POST = projectRoute<{ id: string; packetId: string; threadId: string }>("editor", async (req, p, ctx) => {
  const { id, packetId, threadId } = params.parse(p);
  const input = await readJson(req, resolveInput);
  return NextResponse.json({ comments: await resolveThread(id, packetId, threadId, { ...input, actor: actorName(ctx, input.actor) ?? input.actor }) });
});
