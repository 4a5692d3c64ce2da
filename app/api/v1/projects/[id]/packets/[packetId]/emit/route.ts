import { NextResponse } from "next/server";
import { z } from "zod";
import { emitProjectPacket } from "@/lib/packets/service";
import { projectRoute } from "../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), packetId: z.string().min(1).max(64).describe("packet id") });

/** Hands the latest revision off; 422 while a BLOCK finding stands. */
export const POST = projectRoute<{ id: string; packetId: string }>("editor", async (_req, p) => {
  const { id, packetId } = params.parse(p);
  return NextResponse.json(await emitProjectPacket(id, packetId));
});
