import { NextResponse } from "next/server";
import { reviewHistory, reviewHistoryMarkdown } from "@/lib/collab/service";
import { reviewRoutes } from "@/lib/collab/schemas";
import { handle, reply } from "../../../../../../_lib/handler";

export const dynamic = "force-dynamic";

/** The review history (status changes and comment threads) as a download. */
export const GET = handle(reviewRoutes.export, async ({ params: { id, packetId }, query: { format } }) => {
  const h = await reviewHistory(id, packetId);
  const name = `review-${packetId}.${format}`;
  const disposition = { "content-disposition": `attachment; filename="${name}"` };
  if (format === "json") return reply(h, { headers: disposition });
  return new NextResponse(reviewHistoryMarkdown(h), { headers: { ...disposition, "content-type": "text/markdown; charset=utf-8" } });
});
