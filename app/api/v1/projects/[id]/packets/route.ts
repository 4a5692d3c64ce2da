import { NextResponse } from "next/server";
import { z } from "zod";
import { createProjectPacket, listPackets, newPacketInput } from "@/lib/packets/service";
import { actorName, readJson, projectRoute, searchParams } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id") });
const query = z.object({ archived: z.enum(["0", "1"]).default("0").describe("1 lists archived packets") });

export const GET = projectRoute<{ id: string }>("viewer", async (req, p) => {
  const { id } = params.parse(p);
  const { archived } = query.parse(searchParams(req));
  return NextResponse.json({ packets: await listPackets(id, { archived: archived === "1" }) });
});

/** New packet or brief: from the kind's template, or from imported markdown. */
export const POST = projectRoute<{ id: string }>("editor", async (req, p, ctx) => {
  const { id } = params.parse(p);
  const input = await readJson(req, newPacketInput);
  return NextResponse.json({ packet: await createProjectPacket(id, { ...input, author: actorName(ctx, input.author) }) }, { status: 201 });
});
