import { NextResponse } from "next/server";
import { z } from "zod";
import { packetSnapshots, snapshotInput, snapshotPacket } from "@/lib/collab/service";
import { readJson, route } from "../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), packetId: z.string().min(1).max(64).describe("packet id") });

export const GET = route<{ id: string; packetId: string }>(async (_req, p) => {
  const { id, packetId } = params.parse(p);
  return NextResponse.json({ snapshots: await packetSnapshots(id, packetId) });
});

export const POST = route<{ id: string; packetId: string }>(async (req, p) => {
  const { id, packetId } = params.parse(p);
  return NextResponse.json({ snapshot: await snapshotPacket(id, packetId, await readJson(req, snapshotInput)) }, { status: 201 });
});
