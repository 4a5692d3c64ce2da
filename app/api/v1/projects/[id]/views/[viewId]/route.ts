import { NextResponse } from "next/server";
import { z } from "zod";
import { removeView } from "@/lib/views/service";
import { projectRoute } from "../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), viewId: z.string().min(1).max(64).describe("saved view id") });

export const DELETE = projectRoute<{ id: string; viewId: string }>("editor", async (_req, p) => {
  const { id, viewId } = params.parse(p);
  await removeView(id, viewId);
  return new NextResponse(null, { status: 204 });
});
