import { NextResponse } from "next/server";
import { z } from "zod";
import { getRevision } from "@/lib/packets/service";
import { projectRoute } from "../../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({
  id: z.string().min(1).max(64).describe("project id"),
  packetId: z.string().min(1).max(64).describe("packet id"),
  number: z.coerce.number().int().min(1).describe("revision number"),
});

export const GET = projectRoute<{ id: string; packetId: string; number: string }>("viewer", async (_req, p) => {
  const { id, packetId, number } = params.parse(p);
  return NextResponse.json({ revision: await getRevision(id, packetId, number) });
});
