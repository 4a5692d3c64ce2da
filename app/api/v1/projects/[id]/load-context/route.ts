import { NextResponse } from "next/server";
import { getProjectHead } from "@/lib/projects/service";
import { allTopics } from "@/lib/inventory/service";
import { formatInventory } from "@/lib/inventory/format";
import { inventoryRoutes } from "@/lib/inventory/schemas";
import { loadContextForProject } from "@/lib/inventory/service";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

const markdownReply = (markdown: string) => new NextResponse(markdown, { headers: { "content-type": "text/markdown; charset=utf-8" } });

/** load-context: the seed's markdown (and, as JSON, the structured result behind it). */
export const GET = handle(inventoryRoutes.loadContext, async ({ params: { id }, query: { q, format } }) => {
  const project = await getProjectHead(id);
  if (q === undefined) {
    const topics = await allTopics(id);
    const markdown = formatInventory(topics);
    if (format === "markdown") return markdownReply(markdown);
    return { markdown, topics };
  }
  const { result, markdown } = await loadContextForProject(project, q);
  if (format === "markdown") return markdownReply(markdown);
  return { markdown, result };
});
