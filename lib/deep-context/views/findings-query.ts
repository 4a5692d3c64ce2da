/**
 * Filters, sorts and pages a run's findings on the server, so the run page sends one
 * window of rows instead of every finding (a 100,000-finding packet merges into ~25,000
 * units, ~20 MB as JSON: too much to ship before the page can be used).
 */
import { z } from "zod";
import type { FindingRow } from "./run-view";

export const FINDING_SORTS = ["agreement", "relevance", "path", "firstIteration"] as const;
export type FindingSort = (typeof FINDING_SORTS)[number];

/** The largest window one request may ask for. */
export const MAX_FINDINGS_LIMIT = 500;

const intParam = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

export const findingsQuerySchema = z.object({
  bucket: z.string().max(40).default("").describe("registry bucket (reuseCandidates … lowConfidence); empty for all"),
  kind: z.string().max(40).default("").describe("finding kind; empty for all"),
  executor: z.string().max(200).default("").describe("only findings this executor produced; empty for all"),
  minAgreement: intParam(0, 1000).default(0).describe("lowest agreement count"),
  minRelevance: z.coerce.number().min(0).max(1).default(0).describe("lowest relevance, 0 to 1"),
  contradicted: z
    .enum(["", "0", "1", "true", "false"])
    .default("")
    .transform((v) => v === "1" || v === "true")
    .describe("only units with a contradiction"),
  q: z.string().max(200).default("").describe("case-insensitive substring of the path or symbol"),
  sort: z.enum(FINDING_SORTS).default("agreement").describe("sort order; ties keep registry order"),
  offset: intParam(0, 10_000_000).default(0).describe("index of the first row to return"),
  limit: intParam(1, MAX_FINDINGS_LIMIT).default(200).describe("rows to return"),
});
export type FindingsQuery = z.output<typeof findingsQuerySchema>;
export type FindingsQueryInput = z.input<typeof findingsQuerySchema>;

export interface FindingsFacets {
  total: number;
  buckets: { name: string; count: number }[];
  kinds: { name: string; count: number }[];
}

export interface FindingsPage {
  /** Rows matching the filters (before paging). */
  matched: number;
  offset: number;
  rows: FindingRow[];
}

const COMPARE: Record<FindingSort, (a: FindingRow, b: FindingRow) => number> = {
  agreement: (a, b) => b.agreement - a.agreement || b.relevance - a.relevance,
  relevance: (a, b) => b.relevance - a.relevance || b.agreement - a.agreement,
  path: (a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0),
  firstIteration: (a, b) => a.firstIteration - b.firstIteration,
};

function countBy(rows: readonly FindingRow[], key: (f: FindingRow) => string): { name: string; count: number }[] {
  const m = new Map<string, number>();
  for (const f of rows) m.set(key(f), (m.get(key(f)) ?? 0) + 1);
  return [...m].map(([name, count]) => ({ name, count }));
}

export function findingsFacets(rows: readonly FindingRow[]): FindingsFacets {
  return {
    total: rows.length,
    buckets: countBy(rows, (f) => f.bucket),
    kinds: countBy(rows, (f) => f.kind).sort((a, b) => (a.name < b.name ? -1 : 1)),
  };
}

/**
 * One window of the findings that pass every filter, in the chosen order. Sorting is
 * stable, so rows that tie stay in registry order (bucket, then the reducer's order).
 */
export function queryFindings(rows: readonly FindingRow[], query: FindingsQuery): FindingsPage {
  const text = query.q.trim().toLowerCase();
  const matches = rows.filter(
    (f) =>
      (!query.bucket || f.bucket === query.bucket) &&
      (!query.kind || f.kind === query.kind) &&
      (!query.executor || f.producedBy.includes(query.executor)) &&
      f.agreement >= query.minAgreement &&
      f.relevance >= query.minRelevance &&
      (!query.contradicted || f.contradicted) &&
      (!text || f.path.toLowerCase().includes(text) || f.symbol.toLowerCase().includes(text)),
  );
  matches.sort(COMPARE[query.sort]);
  return { matched: matches.length, offset: query.offset, rows: matches.slice(query.offset, query.offset + query.limit) };
}
