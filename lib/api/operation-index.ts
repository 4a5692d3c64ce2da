/**
 * The API page's contents and filter: each operation of the OpenAPI document as one entry with
 * the words a reader may look it up by, grouped in the page's order. Pure (type imports only):
 * the filter runs in the browser as the reader types.
 */
import type { OpenApiDocument } from "./openapi";

export interface OperationEntry {
  /** Also the operation's anchor on the page: /api-docs#addProject. */
  operationId: string;
  method: string;
  path: string;
  summary: string;
  /** Lower-cased words the filter looks in: method, path, id, summary, description, parameter names, group title. */
  haystack: string;
}

export interface OperationGroup {
  tag: string;
  title: string;
  operations: OperationEntry[];
}

/** Every operation of `doc`, under the groups in their order; a group without operations is left out. */
export function operationGroups(doc: OpenApiDocument, groups: readonly { tag: string; title: string }[]): OperationGroup[] {
  const byTag = new Map<string, OperationEntry[]>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      for (const tag of op.tags) {
        const title = groups.find((g) => g.tag === tag)?.title ?? tag;
        const words = [method, path, op.operationId, op.summary, op.description ?? "", ...op.parameters.map((p) => p.name), title];
        const entry = { operationId: op.operationId, method, path, summary: op.summary, haystack: words.join("\n").toLowerCase() };
        byTag.set(tag, [...(byTag.get(tag) ?? []), entry]);
      }
    }
  }
  return groups.flatMap((g) => {
    const operations = byTag.get(g.tag) ?? [];
    return operations.length ? [{ tag: g.tag, title: g.title, operations }] : [];
  });
}

/**
 * Whether an operation answers a filter: every word of the filter occurs in its haystack, in any
 * order and case ("post packet" finds POST /api/v1/projects/{id}/packets). An empty filter
 * matches everything.
 */
export function matchesFilter(entry: Pick<OperationEntry, "haystack">, words: readonly string[]): boolean {
  return words.every((w) => entry.haystack.includes(w));
}

/** The filter's words, lower-cased: split once, then matched against every entry. */
export function filterWords(filter: string): string[] {
  return filter.toLowerCase().split(/\s+/).filter(Boolean);
}
