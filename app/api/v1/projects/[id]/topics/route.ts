import { NextResponse } from "next/server";
import { z } from "zod";
import { getProjectHead } from "@/lib/db/repositories/projects";
import { listTopics, topicFilterSchema } from "@/lib/db/repositories/topics";
import { projectRoute, searchParams } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id") });

/** The topic inventory, most recently updated first, filtered and paginated. */
export const GET = projectRoute<{ id: string }>("viewer", async (req, p) => {
  const { id } = params.parse(p);
  const filter = topicFilterSchema.parse(searchParams(req));
  await getProjectHead(id);
  return NextResponse.json(await listTopics(id, filter));
});
