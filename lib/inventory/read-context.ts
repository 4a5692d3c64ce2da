import type { ProjectHeadDto } from "../db/dto";
import { contextStoreFor } from "../db/repositories/context-store";
import { allTopics } from "../db/repositories/topics";
import { formatInventory, formatLoadContext } from "./format";
import { loadContext, type LoadContextResult } from "./load-context";

/**
 * load-context and the inventory read straight from the index, uncached. The service caches
 * them per index write for pages; `workbench load-context` reads once and exits, and loads
 * this module (no zod, no cache) on its fast start.
 */
export async function readLoadContext(head: ProjectHeadDto, query: string): Promise<{ result: LoadContextResult; markdown: string }> {
  const result = await loadContext(await contextStoreFor(head), query);
  return { result, markdown: formatLoadContext(result) };
}

export async function inventoryMarkdown(projectId: string): Promise<string> {
  return (await readInventory(projectId)).markdown;
}

/** The inventory's markdown and how many topics it lists (none: the seed's "no local context found" text). */
export async function readInventory(projectId: string): Promise<{ topics: number; markdown: string }> {
  const rows = await allTopics(projectId);
  return { topics: rows.length, markdown: formatInventory(rows) };
}
