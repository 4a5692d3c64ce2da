import { NextResponse } from "next/server";
import { z } from "zod";
import { requireProjectRole } from "@/lib/auth/access";
import { reviewActionInput, reviewHistory, reviewPacket } from "@/lib/collab/service";
import { actorName, readJson, projectRoute } from "../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), packetId: z.string().min(1).max(64).describe("packet id") });

export const GET = projectRoute<{ id: string; packetId: string }>("viewer", async (_req, p) => {
  const { id, packetId } = params.parse(p);
  return NextResponse.json(await reviewHistory(id, packetId));
});

/**
 * A review transition: request_review, approve, request_changes, withdraw (409 when not allowed from
 * the current status). Editors send for review and withdraw; approving or asking for changes is a
 * reviewer's call, so it needs the approver role.
 */
export const POST = projectRoute<{ id: string; packetId: string }>("editor", async (req, p, ctx) => {
  const { id, packetId } = params.parse(p);
  const input = await readJson(req, reviewActionInput);
  if (input.action === "approve" || input.action === "request_changes") await requireProjectRole(ctx.principal, id, "approver");
  return NextResponse.json(await reviewPacket(id, packetId, { ...input, actor: actorName(ctx, input.actor) ?? input.actor }));
});
