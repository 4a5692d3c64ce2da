import { NextResponse } from "next/server";
import { z } from "zod";
import { getProjectHead } from "@/lib/db/repositories/projects";
import { listWarnings } from "@/lib/db/repositories/warnings";
import { projectRoute } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id") });

export const GET = projectRoute<{ id: string }>("viewer", async (_req, p) => {
  const { id } = params.parse(p);
  await getProjectHead(id);
  return NextResponse.json({ warnings: await listWarnings(id) });
});
