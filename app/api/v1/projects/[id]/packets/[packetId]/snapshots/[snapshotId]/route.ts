import { NextResponse } from "next/server";
import { z } from "zod";
import { packetSnapshot } from "@/lib/collab/service";
import { projectRoute } from "../../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), packetId: z.string().min(1).max(64).describe("packet id"), snapshotId: z.string().min(1).max(64).describe("snapshot id") });

export const GET = projectRoute<{ id: string; packetId: string; snapshotId: string }>("viewer", async (_req, p) => {
  const { id, packetId, snapshotId } = params.parse(p);
  return NextResponse.json({ snapshot: await packetSnapshot(id, packetId, snapshotId) });
});
