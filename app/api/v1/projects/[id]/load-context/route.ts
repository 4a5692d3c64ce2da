import { NextResponse } from "next/server";
import { z } from "zod";
import { getProjectHead } from "@/lib/db/repositories/projects";
import { allTopics } from "@/lib/db/repositories/topics";
import { formatInventory } from "@/lib/inventory/format";
import { loadContextForProject } from "@/lib/inventory/service";
import { projectRoute, searchParams } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id") });
const query = z.object({
  q: z.string().max(500).optional().describe("identifier or free-text query; absent for the inventory"),
  format: z.enum(["json", "markdown"]).default("json").describe("markdown returns the seed's text output as text/markdown"),
});

/** load-context: the seed's markdown (and, as JSON, the structured result behind it). */
export const GET = projectRoute<{ id: string }>("viewer", async (req, p) => {
  const { id } = params.parse(p);
  const { q, format } = query.parse(searchParams(req));
  const project = await getProjectHead(id);
  if (q === undefined) {
    const topics = await allTopics(id);
    const markdown = formatInventory(topics);
    if (format === "markdown") return new NextResponse(markdown, { headers: { "content-type": "text/markdown; charset=utf-8" } });
    return NextResponse.json({ markdown, topics });
  }
  const { result, markdown } = await loadContextForProject(project, q);
  if (format === "markdown") return new NextResponse(markdown, { headers: { "content-type": "text/markdown; charset=utf-8" } });
  return NextResponse.json({ markdown, result });
});
