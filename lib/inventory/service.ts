import { LRUCache } from "lru-cache";
import type { ProjectHeadDto } from "../db/dto";
import { getProjectHead } from "../db/repositories/projects";
import { listTopics, topicFilterSchema, type TopicFilter } from "../db/repositories/topic-pages";
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

export { inventoryMarkdown, readInventory } from "./read-context";

type TopicPage = Awaited<ReturnType<typeof listTopics>>;

/** Inventory pages by project, index write and filter: like load-context results, a function of the index. */
const topicPages = new LRUCache<string, TopicPage>({ max: 500, maxSize: 32_000_000, sizeCalculation: (p) => 1 + p.rows.length * 512 });

/**
 * One page of the inventory for the dashboard (of a project whose head the page has read):
 * computed once per index write and filter rather than on every view (the status counts group
 * every topic of the project). Pages are shared between requests: callers must not modify them.
 */
export async function inventoryPage(head: ProjectHeadDto, filter: TopicFilter): Promise<TopicPage> {
  const f = topicFilterSchema.parse(filter);
  const key = `${head.id}\0${head.lastIndexedAt ?? ""}\0${f.source ?? ""}\0${f.status ?? ""}\0${f.q ?? ""}\0${f.page}\0${f.pageSize}`;
  const hit = topicPages.get(key);
  if (hit) return hit;
  const page = await listTopics(head.id, f);
  topicPages.set(key, page);
  return page;
}

/** The topic inventory a page at a time, and the requirement documents and commits a topic links to. */
export { listTopics, topicFilterSchema, type TopicFilter } from "../db/repositories/topic-pages";
export { getCommit, getDocument } from "../db/repositories/documents";
export { allTopics } from "../db/repositories/topics";
