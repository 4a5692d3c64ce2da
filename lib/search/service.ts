/**
 * Full-text search over everything indexed. Words match in any form of the same stem
 * ("webhook" finds "webhooks"), and entries with the words as typed rank first, so an exact
 * identifier finds its own entry at the top. Every word must match; when that finds nothing
 * and more than one word was typed, any word may match (and the result says so). Facets count
 * every match, each facet with the other facets' filters applied, so a person can see what
 * choosing a value would give.
 */
import { WorkbenchError } from "../core/errors";
import { databaseKind } from "../db/database-url";
import { projectNames } from "../db/repositories/projects";
import { EXACT_BONUS, facetGroups, rankedMatches, type FacetGroup, type MatchFilters, type MatchRow, type SearchMatch } from "../db/repositories/search";
import { sqliteSearch } from "../db/repositories/search-sqlite";
import { SEARCH_KINDS, searchQuerySchema, type SearchFacet, type SearchHit, type SearchKind, type SearchQueryInput, type SearchResult } from "./schemas";
import { makeSnippet, parseQuery, searchesStems, stripWordBreaks, toFts5, toTsquery, type QueryTerm } from "./text";
export { jumpTargets } from "../db/repositories/palette";

export interface SearchOutcome extends SearchResult {
  /** "any" when no entry had every word and the hits match some of them. */
  matched: "all" | "any";
}

type Dim = "project" | "kind" | "status" | "year";

function passes(g: FacetGroup, f: MatchFilters, skip: Dim | null): boolean {
  if (f.visibleProjectIds && !f.visibleProjectIds.includes(g.projectId)) return false;
  if (skip !== "project" && f.projectId && g.projectId !== f.projectId) return false;
  if (skip !== "kind" && f.kinds.length > 0 && !f.kinds.includes(g.kind)) return false;
  if (skip !== "status" && f.status && g.status !== f.status) return false;
  // Each group knows whether its entries lie in the date filter's range (exact to the day).
  if (skip !== "year" && !g.dateOk) return false;
  return true;
}

function facet(groups: FacetGroup[], f: MatchFilters, dim: Dim): SearchFacet[] {
  const counts = new Map<string, { label: string; count: number }>();
  for (const g of groups) {
    if (!passes(g, f, dim)) continue;
    const value = dim === "project" ? g.projectId : dim === "kind" ? g.kind : dim === "status" ? g.status : g.year;
    if (value === null) continue;
    const label = dim === "project" ? g.projectName : value;
    const c = counts.get(value);
    if (c) c.count += g.n;
    else counts.set(value, { label, count: g.n });
  }
  const list = [...counts].map(([value, c]) => ({ value, ...c }));
  if (dim === "year") return list.sort((a, b) => (a.value < b.value ? 1 : -1));
  if (dim === "kind") return list.sort((a, b) => SEARCH_KINDS.indexOf(a.value as SearchKind) - SEARCH_KINDS.indexOf(b.value as SearchKind));
  return list.sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
}

/** Marks the query's words in a short text (a title), the way snippets are marked. */
function markTitle(title: string, terms: QueryTerm[]): string {
  return makeSnippet(title, terms, 10_000);
}

/** What a query names when it is one identifier (a file name, a slug, a ticket): compared with entries' refs. */
function namedBy(q: string): string | null {
  const t = q.trim().toLowerCase();
  return /^[^\s"*]+$/.test(t) ? t : null;
}

/**
 * An entry whose own name (its ref, or a path's file name) is what was typed comes first, with
 * a score to match: `payment-webhook-replay.md` opens on that file, not on an index that links
 * it. Among the ranked hits only, so it costs nothing.
 */
function rankNamedFirst(rows: MatchRow[], named: string | null): MatchRow[] {
  if (named === null) return rows;
  const isNamed = (ref: string) => {
    const r = ref.toLowerCase();
    return r === named || r.endsWith(`/${named}`);
  };
  const first = rows.filter((r) => isNamed(r.ref)).map((r) => ({ ...r, score: r.score + 2 * EXACT_BONUS }));
  return first.length ? [...first, ...rows.filter((r) => !isNamed(r.ref))] : rows;
}

/** `visibleProjectIds`: team mode's restriction to the projects the person may see (null: all). */
export async function runSearch(input: SearchQueryInput, visibleProjectIds: string[] | null = null): Promise<SearchOutcome> {
  const parsed = searchQuerySchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new WorkbenchError("INVALID_INPUT", `${issue.path.join(".") || "query"}: ${issue.message}`, parsed.error.issues);
  }
  const query = parsed.data;
  const started = performance.now();
  const engine = databaseKind() === "postgres" ? "postgres-tsvector" : "sqlite-fts5";
  const terms = parseQuery(query.q);
  const filters: MatchFilters = { projectId: query.project, visibleProjectIds, kinds: query.kind, status: query.status, from: query.from, to: query.to };
  const empty = { project: [], kind: [], status: [], year: [] };
  if (terms.length === 0) return { query, total: 0, hits: [], facets: empty, engine, tookMs: 0, matched: "all" };

  // Both engines stem the same way on both sides (the index and the query), so one expression
  // serves the words as typed and their stems, each against its own index.
  const toEngine = engine === "postgres-tsvector" ? toTsquery : toFts5;
  const stems = searchesStems(terms);
  const build = (mode: "all" | "any"): SearchMatch => {
    const expr = toEngine(terms, mode);
    return { exact: expr, stemmed: stems ? expr : null };
  };
  const find = async (match: SearchMatch): Promise<{ groups: FacetGroup[]; rows: MatchRow[] }> => {
    if (engine === "sqlite-fts5") return sqliteSearch(match, filters, query.limit, await projectNames());
    const groups = await facetGroups(match, { from: filters.from, to: filters.to }, visibleProjectIds);
    const passing = groups.filter((g) => passes(g, filters, null)).reduce((n, g) => n + g.n, 0);
    return { groups, rows: passing > 0 ? await rankedMatches(match, filters, query.limit, passing) : [] };
  };
  let matched: "all" | "any" = "all";
  let { groups, rows } = await find(build("all"));
  if (groups.length === 0 && terms.length > 1) {
    matched = "any";
    ({ groups, rows } = await find(build("any")));
  }
  const total = groups.filter((g) => passes(g, filters, null)).reduce((n, g) => n + g.n, 0);
  const named = namedBy(query.q);
  const hits: SearchHit[] = rankNamedFirst(rows, named).map((r) => ({
    projectId: r.projectId,
    projectName: r.projectName,
    kind: r.kind as SearchKind,
    ref: r.ref,
    title: stripWordBreaks(markTitle(r.title, terms)),
    snippet: r.snippet !== null ? stripWordBreaks(r.snippet) : makeSnippet(r.body ?? "", terms),
    status: r.status,
    date: r.date,
    href: r.href,
    score: r.score,
  }));
  return {
    query,
    total,
    hits,
    facets: { project: facet(groups, filters, "project"), kind: facet(groups, filters, "kind"), status: facet(groups, filters, "status"), year: facet(groups, filters, "year") },
    engine,
    tookMs: Math.round((performance.now() - started) * 10) / 10,
    matched,
  };
}
