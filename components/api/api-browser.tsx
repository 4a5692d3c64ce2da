"use client";

import { useEffect, useMemo, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { Input, Label } from "@/components/ui/input";
import { filterWords, matchesFilter, type OperationGroup } from "@/lib/api/operation-index";
import { plural } from "@/lib/core/plural";

const METHOD_CLASS: Record<string, string> = { get: "text-accent", post: "text-ok", patch: "text-fg", put: "text-fg", delete: "text-danger" };

/**
 * The API page's reading aid: a contents column (sticky beside the operations) grouped like the
 * document, and a filter that narrows both as the reader types. The operations themselves are
 * rendered on the server and handed in by id; this only chooses which are shown.
 */
export function ApiBrowser({ groups, sections }: { groups: OperationGroup[]; sections: Record<string, ReactNode> }) {
  const [filter, setFilter] = useState("");
  const [current, setCurrent] = useState<string | null>(null);
  const words = useMemo(() => filterWords(filter), [filter]);
  const visible = useMemo(() => new Set(groups.flatMap((g) => g.operations.filter((o) => matchesFilter(o, words)).map((o) => o.operationId))), [groups, words]);
  const shown = useMemo(() => groups.map((g) => ({ ...g, operations: g.operations.filter((o) => visible.has(o.operationId)) })).filter((g) => g.operations.length > 0), [groups, visible]);
  const total = groups.reduce((n, g) => n + g.operations.length, 0);
  const matched = visible.size;
  const filtering = words.length > 0;

  // The contents mark the operation the address points at (after a contents link or a shared link).
  useEffect(() => {
    const read = () => setCurrent(decodeURIComponent(window.location.hash.slice(1)) || null);
    read();
    window.addEventListener("hashchange", read);
    return () => window.removeEventListener("hashchange", read);
  }, []);

  return (
    <div className="grid gap-6 lg:grid-cols-[17rem_minmax(0,1fr)]">
      <aside className="flex flex-col gap-2 lg:sticky lg:top-6 lg:max-h-[calc(100vh-3rem)] lg:self-start">
        <div>
          <Label htmlFor="api-filter">Filter operations</Label>
          <Input id="api-filter" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="e.g. post packet, memory, cursor" autoComplete="off" spellCheck={false} />
        </div>
        <p role="status" className="text-xs text-fg-muted" data-testid="api-filter-count">
          {filtering ? `${matched.toLocaleString("en")} of ${plural(total, "operation")}` : plural(total, "operation")}
        </p>
        <nav aria-label="API contents" className="max-h-72 min-h-0 overflow-y-auto rounded-lg border border-border bg-surface p-2 text-sm lg:max-h-none">
          {shown.length === 0 ? <p className="px-1 py-2 text-xs text-fg-muted">Nothing matches.</p> : null}
          <ul className="space-y-3">
            {shown.map((g) => (
              <li key={g.tag}>
                <a href={`#tag-${g.tag}`} className="flex items-baseline justify-between gap-2 rounded px-1 py-0.5 text-xs font-semibold hover:bg-muted">
                  <span>{g.title}</span>
                  <span className="shrink-0 font-normal tabular-nums text-fg-muted">{g.operations.length}</span>
                </a>
                <ul className="mt-0.5">
                  {g.operations.map((o) => (
                    <li key={o.operationId}>
                      <a
                        href={`#${o.operationId}`}
                        title={`${o.method.toUpperCase()} ${o.path}`}
                        aria-current={current === o.operationId ? "location" : undefined}
                        className={cn("flex items-baseline gap-2 rounded px-1 py-0.5 text-xs hover:bg-muted", current === o.operationId ? "bg-accent/12 text-accent" : "text-fg-muted hover:text-fg")}
                      >
                        <span className={cn("w-10 shrink-0 font-mono text-[10px] font-semibold uppercase", METHOD_CLASS[o.method])}>{o.method}</span>
                        <span className="truncate">{o.summary}</span>
                      </a>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <div className="flex min-w-0 flex-col gap-6">
        {/* Operations that do not match are hidden, not removed: showing them again costs no re-render of the page. */}
        {groups.map((g) => {
          const n = g.operations.filter((o) => visible.has(o.operationId)).length;
          return (
            <Card key={g.tag} aria-labelledby={`tag-${g.tag}`} hidden={n === 0}>
              <CardHeader
                title={
                  <span id={`tag-${g.tag}`} className="scroll-mt-6">
                    {g.title}
                  </span>
                }
                description={filtering ? `${n.toLocaleString("en")} of ${plural(g.operations.length, "operation")}` : plural(g.operations.length, "operation")}
              />
              {g.operations.map((o) => (
                // Each shown operation draws the line above it, over the header's own line for the first.
                <div key={o.operationId} hidden={!visible.has(o.operationId)} className="-mt-px border-t border-border">
                  {sections[o.operationId]}
                </div>
              ))}
            </Card>
          );
        })}
        {filtering && matched === 0 ? (
          <EmptyState
            title="No operation matches"
            action={
              <Button size="sm" onClick={() => setFilter("")}>
                Clear the filter
              </Button>
            }
          >
            Every word of “{filter.trim()}” must occur in an operation&apos;s method, path, summary, description or parameters.
          </EmptyState>
        ) : null}
      </div>
    </div>
  );
}
