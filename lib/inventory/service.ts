import { contextStoreFor } from "../db/repositories/context-store";
import { allTopics } from "../db/repositories/topics";
import { formatInventory, formatLoadContext } from "./format";
import { loadContext, type LoadContextResult } from "./load-context";

/** load-context for an indexed project: the structured result and the seed's markdown. */
export async function loadContextForProject(projectId: string, query: string): Promise<{ result: LoadContextResult; markdown: string }> {
  const store = await contextStoreFor(projectId);
  const result = await loadContext(store, query);
  return { result, markdown: formatLoadContext(result) };
}

export async function inventoryMarkdown(projectId: string): Promise<string> {
  return formatInventory(await allTopics(projectId));
}
