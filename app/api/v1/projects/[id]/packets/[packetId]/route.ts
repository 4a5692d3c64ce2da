import { NextResponse } from "next/server";
import { z } from "zod";
import { getPacket, metaInput, updateProjectPacket } from "@/lib/packets/service";
import { readJson, projectRoute } from "../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), packetId: z.string().min(1).max(64).describe("packet id") });

export const GET = projectRoute<{ id: string; packetId: string }>("viewer", async (_req, p) => {
  const { id, packetId } = params.parse(p);
  return NextResponse.json({ packet: await getPacket(id, packetId) });
});

/** Title, topic link, archive / restore. */
export const PATCH = projectRoute<{ id: string; packetId: string }>("editor", async (req, p) => {
  const { id, packetId } = params.parse(p);
  return NextResponse.json({ packet: await updateProjectPacket(id, packetId, await readJson(req, metaInput)) });
});
