import { NextResponse } from "next/server";
import { z } from "zod";
import { diffRevisions } from "@/lib/packets/service";
import { projectRoute, searchParams } from "../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), packetId: z.string().min(1).max(64).describe("packet id") });
const query = z.object({ from: z.coerce.number().int().min(1).describe("older revision"), to: z.coerce.number().int().min(1).describe("newer revision") });

/** A unified diff (hunks) between two revisions. */
export const GET = projectRoute<{ id: string; packetId: string }>("viewer", async (req, p) => {
  const { id, packetId } = params.parse(p);
  const { from, to } = query.parse(searchParams(req));
  return NextResponse.json({ diff: await diffRevisions(id, packetId, from, to) });
});
