import { pageVisibleProjects } from "@/app/_lib/page-access";
import type { Metadata } from "next";
import { SavedViews } from "@/components/views/saved-views";
import { savedViews } from "@/lib/views/service";
import { SearchFacets, type FacetGroupView, type FacetParam } from "@/components/search/search-facets";
import { SearchForm } from "@/components/search/search-form";
import { SearchResults } from "@/components/search/search-results";
import { KIND_LABEL } from "@/components/search/kind-label";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { isWorkbenchError } from "@/lib/core/errors";
import { runSearch, type SearchOutcome } from "@/lib/search/service";
import type { SearchKind } from "@/lib/search/schemas";
import { plural } from "@/lib/core/plural";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Search" };

type Params = Record<string, string | string[] | undefined>;

const PARAMS = ["q", "project", "kind", "status", "from", "to"] as const;

function stringParams(sp: Params): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of PARAMS) {
    const v = sp[k];
    if (typeof v === "string" && v !== "") out[k] = v;
  }
  return out;
}

const url = (p: Record<string, string>) => `/search?${new URLSearchParams(p).toString()}`;

export default async function SearchPage({ searchParams }: { searchParams: Promise<Params> }) {
  const params = stringParams(await searchParams);
  const visible = await pageVisibleProjects();
  // A project that is gone (or hidden from this person) simply has no saved views to list.
  const views = params.project && (!visible || visible.includes(params.project)) ? await savedViews(params.project, "search").catch(() => []) : [];
  let result: SearchOutcome | null = null;
  let problem: string | null = null;
  if (params.q) {
    try {
      result = await runSearch({ ...params, q: params.q }, visible);
    } catch (e) {
      if (!isWorkbenchError(e) || e.code !== "INVALID_INPUT") throw e;
      problem = e.message;
    }
  }
  const year = params.from?.endsWith("-01-01") && params.to === `${params.from.slice(0, 4)}-12-31` ? params.from.slice(0, 4) : null;
  const withValue = (param: FacetParam, value: string | null): string => {
    const next = { ...params };
    if (param === "year") {
      delete next.from;
      delete next.to;
      if (value) Object.assign(next, { from: `${value}-01-01`, to: `${value}-12-31` });
    } else if (value) next[param] = value;
    else delete next[param];
    return url(next);
  };
  const groups: FacetGroupView[] = result
    ? [
        { param: "project", title: "Project", facets: result.facets.project, chosen: params.project ?? null, hrefFor: (v) => withValue("project", v) },
        {
          param: "kind",
          title: "Kind",
          facets: result.facets.kind.map((f) => ({ ...f, label: KIND_LABEL[f.value as SearchKind] ?? f.label })),
          chosen: params.kind ?? null,
          hrefFor: (v) => withValue("kind", v),
        },
        { param: "status", title: "Status", facets: result.facets.status, chosen: params.status ?? null, hrefFor: (v) => withValue("status", v) },
        { param: "year", title: "Year", facets: result.facets.year, chosen: year, hrefFor: (v) => withValue("year", v) },
      ]
    : [];
  const { q = "", from, to, ...keep } = params;
  const projectName = result?.facets.project.find((f) => f.value === params.project)?.label;
  return (
    <div>
      <PageHeader
        title="Search"
        description="Topics, summaries, documents, requirements, product knowledge, the knowledge base's docs/, packets and briefs, findings, memory events and commit messages, in any form of their words (webhook finds webhooks; the words as typed rank first), ranked by the database's own full-text index."
      />
      {params.project ? (
        <div className="mb-4">
          <SavedViews projectId={params.project} surface="search" views={views} suggestedName={`Search: ${params.q ?? ""}`} />
        </div>
      ) : null}
      <SearchForm q={q} from={from} to={to} keep={keep} />
      <div className="mt-6">
        {problem ? (
          <p role="alert" className="text-sm text-danger">
            {problem}
          </p>
        ) : !result ? (
          <EmptyState title="Type words to search for">
            Every word must match; <code>&quot;a phrase&quot;</code> matches words in order, and <code>expo*</code> matches a prefix. Press <kbd>/</kbd> to jump to the search field, or <kbd>Ctrl</kbd>+<kbd>K</kbd>{" "}
            anywhere.
          </EmptyState>
        ) : (
          <div className="grid gap-6 md:grid-cols-[14rem_1fr]">
            <SearchFacets groups={groups} />
            <div className="min-w-0">
              <p className="mb-3 text-sm text-fg-muted" data-testid="search-summary">
                {result.total === 0
                  ? "Nothing matches."
                  : `${plural(result.total, "match", "matches")}${projectName ? ` in ${projectName}` : ""}${result.total > result.hits.length ? `; the best ${result.hits.length} are shown` : ""}${result.matched === "any" ? ". No entry has every word, so these match some of them" : ""}. ${result.tookMs} ms, ${result.engine === "sqlite-fts5" ? "SQLite FTS5" : "PostgreSQL full-text"}.`}
              </p>
              {result.hits.length > 0 ? (
                <SearchResults hits={result.hits} showProject={!params.project} />
              ) : (
                <EmptyState title="No matches">
                  Try fewer words, a prefix such as <code>expo*</code>, or clear the filters.
                </EmptyState>
              )}
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
