import { NextResponse } from "next/server";
import { z } from "zod";
import { warmRunViews } from "@/lib/deep-context/service";
import { fetchProject } from "@/lib/projects/remote-projects";
import { projectRoute } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id") });

/** Fetches a remote project now; `job` is the index job started when HEAD moved, else null. */
export const POST = projectRoute<{ id: string }>("editor", async (_req, p) => {
  const { id } = params.parse(p);
  const result = await fetchProject(id, { afterSuccess: () => warmRunViews(id) });
  return NextResponse.json(result);
});
