import Link from "next/link";
import type { SearchFacet } from "@/lib/search/schemas";
import { cn } from "@/components/ui/cn";

export type FacetParam = "project" | "kind" | "status" | "year";

export interface FacetGroupView {
  param: FacetParam;
  title: string;
  facets: SearchFacet[];
  /** The value chosen now, if any. */
  chosen: string | null;
  /** The URL that chooses (or, for the chosen value, clears) a value. */
  hrefFor: (value: string | null) => string;
}

/** Counts per facet value; choosing one narrows the search, choosing it again clears it. */
export function SearchFacets({ groups }: { groups: FacetGroupView[] }) {
  return (
    <nav aria-label="Narrow the results" className="space-y-5 text-sm" data-testid="search-facets">
      {groups.map((g) =>
        g.facets.length === 0 ? null : (
          <section key={g.param}>
            <h2 className="mb-1.5 text-xs font-semibold uppercase tracking-wide text-fg-muted">{g.title}</h2>
            <ul className="space-y-0.5">
              {g.facets.map((f) => {
                const active = g.chosen === f.value;
                return (
                  <li key={f.value}>
                    <Link
                      href={g.hrefFor(active ? null : f.value)}
                      aria-current={active ? "true" : undefined}
                      className={cn("flex items-center justify-between gap-2 rounded px-2 py-1 hover:bg-muted", active && "bg-accent/12 font-medium text-accent")}
                    >
                      <span className="truncate">{f.label}</span>
                      <span className="tabular-nums text-xs text-fg-muted">{f.count}</span>
                    </Link>
                  </li>
                );
              })}
            </ul>
          </section>
        ),
      )}
    </nav>
  );
}
