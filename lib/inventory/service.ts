import { LRUCache } from "lru-cache";
import type { ProjectHeadDto } from "../db/dto";
import { getProjectHead } from "../db/repositories/projects";
import type { LoadContextResult } from "./load-context";
import { readLoadContext } from "./read-context";

type Loaded = { result: LoadContextResult; markdown: string };

/**
 * load-context results by project, index write and query. A result is a function of the index
 * (every write sets the project's lastIndexedAt in the same transaction) and of whether the
 * knowledge folders exist, so it is computed once per index rather than on every view of a
 * topic page (a handful of queries, the markdown and, on a miss, the fuzzy scans). Results
 * are shared between requests: callers must not modify them.
 */
const loaded = new LRUCache<string, Loaded>({ max: 1_000, maxSize: 32_000_000, sizeCalculation: (v) => Math.max(1, v.markdown.length * 4) });

/** load-context for an indexed project (or its head, already read): the structured result and the seed's markdown. */
export async function loadContextForProject(project: string | ProjectHeadDto, query: string): Promise<Loaded> {
  const head = typeof project === "string" ? await getProjectHead(project) : project;
  const key = `${head.id}\0${head.lastIndexedAt ?? ""}\0${query}`;
  const hit = loaded.get(key);
  if (hit) return hit;
  const out = await readLoadContext(head, query);
  loaded.set(key, out);
  return out;
}

export { inventoryMarkdown } from "./read-context";

/** The topic inventory a page at a time, and the requirement documents and commits a topic links to. */
export { listTopics, topicFilterSchema, type TopicFilter } from "../db/repositories/topic-pages";
export { getCommit, getDocument } from "../db/repositories/documents";
export { allTopics } from "../db/repositories/topics";
