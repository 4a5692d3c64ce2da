import { NextResponse } from "next/server";
import { z } from "zod";
import { memoryDesk } from "@/lib/memory/desk";
import { projectRoute } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id") });

/** The project's .coord/: proposals with evidence and signature checks, memory view, checkpoints, policies, per-file errors, and which key ids can sign. */
export const GET = projectRoute<{ id: string }>("viewer", async (_req, p) => {
  const { id } = params.parse(p);
  return NextResponse.json(await memoryDesk(id));
});
