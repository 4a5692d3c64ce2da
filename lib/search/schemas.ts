/**
 * The search contract shared by the search page, `GET /api/v1/search`, the command palette
 * and the MCP `search` tool: one query schema, one result shape.
 */
import { z } from "zod";
import { defineRoute, opaque } from "../core/contract";
import type { JumpTargets } from "../db/repositories/palette";

/** What an indexed entry is. Each kind links to its own page. */
export const SEARCH_KINDS = ["topic", "summary", "document", "requirement", "knowledge", "kb", "packet", "brief", "finding", "memory", "commit"] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** Results are always bounded: the best `limit` hits by rank, never more than this. */
export const MAX_SEARCH_LIMIT = 100;

const csv = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .union([z.array(z.enum(values)), z.string()])
    .default([])
    .transform((v, ctx) => {
      const list = Array.isArray(v)
        ? v
        : v
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean);
      for (const item of list) {
        if (!(values as readonly string[]).includes(item)) {
          ctx.addIssue({ code: "custom", message: `unknown value ${JSON.stringify(item)}; expected one of ${values.join(", ")}` });
          return z.NEVER;
        }
      }
      return [...new Set(list)] as T[number][];
    });

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "a date as YYYY-MM-DD")
  .optional()
  .or(z.literal("").transform(() => undefined));

/** A filter value; empty means no filter, as an empty field in a form does. */
const optionalFilter = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[^\u0000]*$/, "must not contain NUL")
    .optional()
    .transform((v) => v || undefined);

export const searchQuerySchema = z.object({
  q: z.string().trim().min(1, "type something to search for").max(300).describe("the words to find; quoted phrases and a trailing * prefix are honoured"),
  project: optionalFilter(64).describe("only this project's entries (its id); all projects when absent or empty"),
  kind: csv(SEARCH_KINDS).describe("only these kinds (comma-separated or a list); all kinds when empty"),
  status: optionalFilter(60).describe("only entries with this status (a topic's status, a packet's review status, a finding's bucket, a memory entry's state); all when absent or empty"),
  from: isoDay.describe("only entries dated on or after this day (YYYY-MM-DD)"),
  to: isoDay.describe("only entries dated on or before this day (YYYY-MM-DD)"),
  limit: z.coerce.number().int().min(1).max(MAX_SEARCH_LIMIT).default(50).describe(`how many hits to return, best first (at most ${MAX_SEARCH_LIMIT})`),
});
export type SearchQuery = z.output<typeof searchQuerySchema>;
export type SearchQueryInput = z.input<typeof searchQuerySchema>;

export interface SearchHit {
  projectId: string;
  projectName: string;
  kind: SearchKind;
  /** The entry's key within its project and kind (a slug, a path, a packet id, a unit id, an event id, a commit hash). */
  ref: string;
  title: string;
  /**
   * A short excerpt around the match. Matched words are wrapped in U+E000 / U+E001 (private-use
   * marks that never occur in indexed text) so a client highlights them without parsing HTML.
   */
  snippet: string;
  status: string | null;
  /** ISO date (YYYY-MM-DD…) when the entry has one. */
  date: string | null;
  /** The Workbench page that shows the entry. */
  href: string;
  /** Engine rank, higher is better; only comparable within one result. */
  score: number;
}

export interface SearchFacet {
  value: string;
  label: string;
  count: number;
}

export interface SearchResult {
  query: SearchQuery;
  /** Every entry that matches (before `limit`). */
  total: number;
  hits: SearchHit[];
  facets: { project: SearchFacet[]; kind: SearchFacet[]; status: SearchFacet[]; year: SearchFacet[] };
  /** Which engine index answered: "sqlite-fts5" or "postgres-tsvector". */
  engine: "sqlite-fts5" | "postgres-tsvector";
  tookMs: number;
}

export const HIGHLIGHT_START = "\uE000";
export const HIGHLIGHT_END = "\uE001";

// ---------------------------------------------------------------------------
// The search API: full-text search and the command palette's jump targets

export const searchHitSchema = z
  .object({
    projectId: z.string().describe("project id"),
    projectName: z.string().describe("project name"),
    kind: z.enum(SEARCH_KINDS).describe("what the entry is"),
    ref: z.string().describe("the entry's key within its project and kind"),
    title: z.string().describe("title"),
    snippet: z.string().describe("an excerpt around the match; matched words wrapped in U+E000 / U+E001"),
    status: z.string().nullable().describe("status, when the entry has one"),
    date: z.string().nullable().describe("ISO date, when the entry has one"),
    href: z.string().describe("the Workbench page that shows the entry"),
    score: z.number().describe("engine rank, higher is better; only comparable within one result"),
  })
  .describe("a search hit");

const facetSchema = z.array(z.object({ value: z.string().describe("filter value"), label: z.string().describe("label"), count: z.number().int().describe("matches") }));

export const searchResultSchema = z
  .object({
    query: opaque("the query as understood, defaults applied"),
    total: z.number().int().describe("every entry that matches (before limit)"),
    hits: z.array(searchHitSchema).describe("the best hits, best first"),
    facets: z
      .object({ project: facetSchema.describe("by project"), kind: facetSchema.describe("by kind"), status: facetSchema.describe("by status"), year: facetSchema.describe("by year") })
      .describe("counts over every match"),
    engine: z.enum(["sqlite-fts5", "postgres-tsvector"]).describe("which engine index answered"),
    tookMs: z.number().describe("time taken"),
    matched: z.enum(["all", "any"]).describe('"any" when no entry had every word and the hits match some of them'),
  })
  .describe("search results");

const jumpTargetsSchema = z
  .object({
    projects: z.array(z.object({ id: z.string(), name: z.string() })).describe("projects"),
    topics: z.array(z.object({ projectId: z.string(), slug: z.string(), title: z.string().nullable(), status: z.string().nullable() })).describe("topics"),
    runs: z.array(z.object({ projectId: z.string(), id: z.string(), relPath: z.string(), loopType: z.string(), status: z.string().nullable() })).describe("runs"),
    packets: z.array(z.object({ projectId: z.string(), id: z.string(), title: z.string(), kind: z.string(), reviewStatus: z.string() })).describe("packets"),
    views: z.array(z.object({ projectId: z.string(), id: z.string(), name: z.string(), surface: z.string(), path: z.string() })).describe("saved views"),
  })
  .describe("what the command palette can jump to, bounded per kind");

export type JumpTargetsWire = z.infer<typeof jumpTargetsSchema>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const assertSame = <T extends true>(_: T) => undefined;
assertSame<Same<z.infer<typeof searchHitSchema>, SearchHit>>(true);
assertSame<Same<z.infer<typeof jumpTargetsSchema>, JumpTargets>>(true);

export const searchRoutes = {
  search: defineRoute({
    id: "search",
    method: "GET",
    path: "/api/v1/search",
    tag: "search",
    summary: "Full-text search over every project you can see",
    description: 'The best `limit` hits with snippets, and facets whose counts cover every match. Every word must match; `"a phrase"` matches in order and `expo*` a prefix.',
    access: { kind: "signed-in" },
    query: searchQuerySchema,
    response: { status: 200, description: "the results", json: searchResultSchema },
  }),
  palette: defineRoute({
    id: "paletteTargets",
    method: "GET",
    path: "/api/v1/palette",
    tag: "search",
    summary: "What the command palette can jump to: projects, topics, runs, packets and saved views",
    access: { kind: "signed-in" },
    response: { status: 200, description: "the targets", json: jumpTargetsSchema },
  }),
};
