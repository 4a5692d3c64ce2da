import { NextResponse } from "next/server";
import { z } from "zod";
import { reviewActionInput, reviewHistory, reviewPacket } from "@/lib/collab/service";
import { readJson, route } from "../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), packetId: z.string().min(1).max(64).describe("packet id") });

export const GET = route<{ id: string; packetId: string }>(async (_req, p) => {
  const { id, packetId } = params.parse(p);
  return NextResponse.json(await reviewHistory(id, packetId));
});

/** A review transition: request_review, approve, request_changes, withdraw (409 when not allowed from the current status). */
export const POST = route<{ id: string; packetId: string }>(async (req, p) => {
  const { id, packetId } = params.parse(p);
  return NextResponse.json(await reviewPacket(id, packetId, await readJson(req, reviewActionInput)));
});
