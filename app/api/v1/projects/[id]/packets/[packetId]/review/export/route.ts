import { NextResponse } from "next/server";
import { z } from "zod";
import { reviewHistory, reviewHistoryMarkdown } from "@/lib/collab/service";
import { projectRoute, searchParams } from "../../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), packetId: z.string().min(1).max(64).describe("packet id") });
const query = z.object({ format: z.enum(["md", "json"]).default("md").describe("markdown or JSON") });

/** The review history (status changes and comment threads) as a download. */
export const GET = projectRoute<{ id: string; packetId: string }>("viewer", async (req, p) => {
  const { id, packetId } = params.parse(p);
  const { format } = query.parse(searchParams(req));
  const h = await reviewHistory(id, packetId);
  const name = `review-${packetId}.${format}`;
  const disposition = { "content-disposition": `attachment; filename="${name}"` };
  if (format === "json") return NextResponse.json(h, { headers: disposition });
  return new NextResponse(reviewHistoryMarkdown(h), { headers: { ...disposition, "content-type": "text/markdown; charset=utf-8" } });
});
