"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { callApi } from "@/lib/api/client";
import { runRoutes } from "@/lib/deep-context/schemas";
import type { EvidenceCheck, FindingsFacets, FindingsPage, FindingRow } from "@/lib/deep-context/views";
import { Badge } from "@/components/ui/badge";
import { Input } from "@/components/ui/input";
import { dialogOpen, isTyping } from "@/components/ui/keyboard-list";
import { FINDINGS_BLOCK, filtersFromParams, filtersToParams, useFindingsWindow, type FindingsFilters } from "./use-findings-window";
import { plural } from "@/lib/core/plural";

const ROW_HEIGHT = 36;
/** Filter keys live in the page URL under this prefix, so a filtered view can be shared. */
const PREFIX = "f.";

function readUrlFilters(params: URLSearchParams): FindingsFilters {
  const own = new URLSearchParams();
  for (const [k, v] of params) if (k.startsWith(PREFIX)) own.set(k.slice(PREFIX.length), v);
  return filtersFromParams(own);
}

function writeUrlFilters(f: FindingsFilters): void {
  const url = new URL(window.location.href);
  for (const k of [...url.searchParams.keys()]) if (k.startsWith(PREFIX)) url.searchParams.delete(k);
  for (const [k, v] of filtersToParams(f)) url.searchParams.set(PREFIX + k, v);
  // No state object: Next syncs its router (and useSearchParams) only with foreign history entries.
  window.history.replaceState(null, "", url);
}

/**
 * Every bucket and lowConfidence, filtered and sorted on the server and drawn virtually:
 * the list fetches the windows it is about to show, so 100,000 findings cost what 40 rows do.
 */
export function FindingsExplorer({ projectId, runId, facets, first, executors }: { projectId: string; runId: string; facets: FindingsFacets; first: FindingsPage; executors: string[] }) {
  const searchParams = useSearchParams();
  const [filters, setFilters] = useState<FindingsFilters>(() => readUrlFilters(new URLSearchParams(searchParams.toString())));
  const [text, setText] = useState(filters.q);
  const urlFilters = filtersToParams(readUrlFilters(new URLSearchParams(searchParams.toString()))).toString();
  const written = useRef(urlFilters);
  const set = (patch: Partial<FindingsFilters>) =>
    setFilters((f) => {
      const next = { ...f, ...patch };
      written.current = filtersToParams(next).toString();
      writeUrlFilters(next);
      return next;
    });
  // A navigation to this page with other filters (a saved view, a link to a finding) must
  // apply them: the router may reuse this component, and its state, for the new URL.
  useEffect(() => {
    if (urlFilters === written.current) return; // the URL this explorer wrote itself
    written.current = urlFilters;
    const next = filtersFromParams(new URLSearchParams(urlFilters));
    setFilters(next);
    setText(next.q);
  }, [urlFilters]);
  // Typing filters after a pause, not on every key.
  useEffect(() => {
    if (text === filters.q) return;
    const t = setTimeout(() => set({ q: text }), 250);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);
  // Marks the explorer interactive (tests and the TTI benchmark wait for it).
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const data = useFindingsWindow({ id: projectId, runId }, filters, first);
  const count = data.matched ?? 0;

  const [selected, setSelected] = useState<FindingRow | null>(null);
  const [check, setCheck] = useState<EvidenceCheck | null>(null);
  useEffect(() => {
    setCheck(null);
    if (!selected) return;
    const ctrl = new AbortController();
    callApi(runRoutes.evidence, { params: { id: projectId }, query: { path: selected.path, symbol: selected.symbol, evidence: selected.evidence }, signal: ctrl.signal })
      .then((b) => setCheck(b.check))
      .catch(() => undefined);
    return () => ctrl.abort();
  }, [selected, projectId]);

  const parent = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count, getScrollElement: () => parent.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = virtual.getVirtualItems();
  const firstIndex = items[0]?.index ?? 0;
  const lastIndex = items.at(-1)?.index ?? 0;
  const { ensure } = data;
  useEffect(() => {
    if (count) ensure(firstIndex, lastIndex);
  }, [ensure, firstIndex, lastIndex, count]);
  const select = "h-9 rounded-md border border-border bg-surface px-2 text-sm";

  const [cursor, setCursor] = useState(-1);
  // A link to one finding (`?finding=<unit_id>`, e.g. from search) opens it once its row loads.
  const findingParam = searchParams.get("finding");
  const wanted = useRef(findingParam);
  useEffect(() => {
    wanted.current = findingParam;
  }, [findingParam]);
  useEffect(() => {
    if (!wanted.current) return;
    for (let i = 0; i < Math.min(count, FINDINGS_BLOCK); i++) {
      const f = data.row(i);
      if (f?.unit_id === wanted.current) {
        wanted.current = null;
        setSelected(f);
        setCursor(i);
        virtual.scrollToIndex(i, { align: "center" });
        return;
      }
    }
  }, [data, count, virtual]);

  // j / k move through the rows (the drawer follows), / jumps to the text filter.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey || isTyping(e.target) || dialogOpen()) return;
      if (e.key === "/") {
        e.preventDefault();
        document.getElementById("finding-text")?.focus();
        return;
      }
      if (e.key !== "j" && e.key !== "k") return;
      // A row of another table on the page has the focus: j / k are that table's.
      if ((document.activeElement as HTMLElement | null)?.closest("[data-nav-row]")) return;
      if (count === 0) return;
      e.preventDefault();
      const next = Math.max(0, Math.min(count - 1, cursor + (e.key === "j" ? 1 : -1)));
      setCursor(next);
      virtual.scrollToIndex(next, { align: "auto" });
      const f = data.row(next);
      if (f) setSelected(f);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [count, cursor, data, virtual]);

  return (
    <div className="space-y-3" data-testid="findings-explorer" data-hydrated={hydrated ? "true" : undefined}>
      <div className="flex flex-wrap items-end gap-3" role="search" aria-label="Filter findings">
        <label className="text-xs text-fg-muted">
          Bucket
          <select className={`${select} ml-0 block`} value={filters.bucket} onChange={(e) => set({ bucket: e.target.value })} aria-label="Bucket">
            <option value="">All</option>
            {facets.buckets.map((b) => (
              <option key={b.name} value={b.name}>
                {b.name} ({b.count.toLocaleString("en")})
              </option>
            ))}
          </select>
        </label>
        <label className="text-xs text-fg-muted">
          Kind
          <select className={`${select} block`} value={filters.kind} onChange={(e) => set({ kind: e.target.value })} aria-label="Kind">
            <option value="">All</option>
            {facets.kinds.map((k) => (
              <option key={k.name} value={k.name}>
                {k.name} ({k.count.toLocaleString("en")})
              </option>
            ))}
          </select>
        </label>
        <label className="text-xs text-fg-muted">
          Executor
          <select className={`${select} block`} value={filters.executor} onChange={(e) => set({ executor: e.target.value })} aria-label="Executor">
            <option value="">All</option>
            {executors.map((x) => (
              <option key={x}>{x}</option>
            ))}
          </select>
        </label>
        <label className="text-xs text-fg-muted">
          Min agreement
          <input
            className={`${select} block w-20`}
            type="number"
            min={0}
            max={executors.length}
            value={filters.minAgreement}
            onChange={(e) => set({ minAgreement: Math.max(0, Math.trunc(Number(e.target.value)) || 0) })}
            aria-label="Min agreement"
          />
        </label>
        <label className="text-xs text-fg-muted">
          Min relevance
          <input
            className={`${select} block w-24`}
            type="number"
            min={0}
            max={1}
            step={0.05}
            value={filters.minRelevance}
            onChange={(e) => set({ minRelevance: Math.min(1, Math.max(0, Number(e.target.value) || 0)) })}
            aria-label="Min relevance"
          />
        </label>
        <label className="flex h-9 items-center gap-1.5 text-sm">
          <input type="checkbox" checked={filters.contradicted} onChange={(e) => set({ contradicted: e.target.checked })} /> contradicted only
        </label>
        <label className="text-xs text-fg-muted">
          Sort
          <select className={`${select} block`} value={filters.sort} onChange={(e) => set({ sort: e.target.value as FindingsFilters["sort"] })} aria-label="Sort">
            <option value="agreement">agreement</option>
            <option value="relevance">relevance</option>
            <option value="path">path</option>
            <option value="firstIteration">first iteration</option>
          </select>
        </label>
        <div className="w-56">
          <label htmlFor="finding-text" className="text-xs text-fg-muted">
            Path or symbol
          </label>
          <Input id="finding-text" type="search" data-nav-search value={text} onChange={(e) => setText(e.target.value)} />
        </div>
      </div>
      <p className="text-xs text-fg-muted" aria-live="polite" data-testid="findings-count">
        {data.matched === null ? "Filtering…" : `${count.toLocaleString("en")} of ${plural(facets.total, "finding")}`}
        {data.error ? <span className="ml-2 text-danger">Could not load findings: {data.error}</span> : null}
      </p>
      <div className="grid gap-3 lg:grid-cols-[1fr_22rem]">
        <div ref={parent} className="h-[28rem] overflow-auto rounded-md border border-border" role="table" aria-label="Findings" aria-rowcount={count} aria-busy={data.loading}>
          <div role="row" className="sticky top-0 z-10 grid grid-cols-[1fr_9rem_5rem_5rem_4rem] gap-2 border-b border-border bg-surface px-3 py-2 text-xs font-medium text-fg-muted">
            <span role="columnheader">Symbol · path</span>
            <span role="columnheader">Kind</span>
            <span role="columnheader">Agree</span>
            <span role="columnheader">Relev.</span>
            <span role="columnheader">Iter.</span>
          </div>
          <div style={{ height: virtual.getTotalSize(), position: "relative" }}>
            {items.map((v) => {
              const f = data.row(v.index);
              if (!f)
                return (
                  <div key={`pending-${v.index}`} role="row" aria-hidden className="absolute left-0 flex w-full items-center border-b border-border px-3" style={{ top: v.start, height: ROW_HEIGHT }}>
                    <span className="h-3 w-2/3 animate-pulse rounded bg-muted" />
                  </div>
                );
              return (
                <button
                  type="button"
                  role="row"
                  key={f.unit_id + f.bucket}
                  onClick={() => (setSelected(f), setCursor(v.index))}
                  aria-selected={selected?.unit_id === f.unit_id}
                  className={`absolute left-0 grid w-full grid-cols-[1fr_9rem_5rem_5rem_4rem] items-center gap-2 border-b border-border px-3 text-left text-xs hover:bg-muted ${selected?.unit_id === f.unit_id ? "bg-accent/10" : ""} ${cursor === v.index ? "outline outline-2 -outline-offset-2 outline-accent" : ""}`}
                  style={{ top: v.start, height: ROW_HEIGHT }}
                >
                  <span role="cell" className="truncate">
                    <span className="font-mono">{f.symbol || "—"}</span> <span className="text-fg-muted">{f.path}</span>
                  </span>
                  <span role="cell">
                    {f.kind} {f.contradicted ? <Badge tone="danger">contradicted</Badge> : null}
                  </span>
                  <span role="cell" className="tabular-nums">
                    {f.agreement}
                    {f.agreementEligible ? " ✓" : ""}
                  </span>
                  <span role="cell" className="tabular-nums">
                    {f.relevance.toFixed(2)}
                  </span>
                  <span role="cell" className="tabular-nums">
                    {f.firstIteration}
                  </span>
                </button>
              );
            })}
          </div>
        </div>
        <aside className="rounded-md border border-border p-3 text-sm" aria-label="Finding details" data-testid="finding-drawer">
          {selected ? (
            <dl className="space-y-1.5">
              <div>
                <dt className="text-xs text-fg-muted">Symbol</dt>
                <dd className="font-mono text-xs">{selected.symbol || "—"}</dd>
              </div>
              <div>
                <dt className="text-xs text-fg-muted">Path</dt>
                <dd className="break-all font-mono text-xs">{selected.path}</dd>
              </div>
              <div>
                <dt className="text-xs text-fg-muted">Evidence</dt>
                <dd className="break-all font-mono text-xs">{selected.evidence || "—"}</dd>
                <dd className="mt-1" data-testid="evidence-check">
                  {check ? (
                    <>
                      <Badge tone={check.status === "verified" ? "ok" : check.status === "stale" ? "warn" : "danger"}>{check.status}</Badge> <span className="text-xs text-fg-muted">{check.reason}</span>
                      {check.lineText !== null ? <pre className="mt-1 overflow-x-auto rounded bg-muted p-1.5 font-mono text-[11px]">{`${check.line}  ${check.lineText}`}</pre> : null}
                    </>
                  ) : (
                    <span className="text-xs text-fg-muted">Checking the repository…</span>
                  )}
                </dd>
              </div>
              <div>
                <dt className="text-xs text-fg-muted">Signature</dt>
                <dd className="break-all font-mono text-xs">{selected.signature || "—"}</dd>
              </div>
              <div>
                <dt className="text-xs text-fg-muted">Reuse</dt>
                <dd>{selected.reuse || "—"}</dd>
              </div>
              <div>
                <dt className="text-xs text-fg-muted">Produced by</dt>
                <dd className="flex flex-wrap gap-1">
                  {selected.producedBy.map((p) => (
                    <Badge key={p}>{p}</Badge>
                  ))}
                </dd>
              </div>
              <div>
                <dt className="text-xs text-fg-muted">Bucket · relevance · first iteration</dt>
                <dd>
                  {selected.bucket} · {selected.relevance.toFixed(3)} · {selected.firstIteration}
                  {selected.droppedBelowGate !== undefined ? ` · below the ${selected.droppedBelowGate} gate` : ""}
                </dd>
              </div>
              {selected.notes ? (
                <div>
                  <dt className="text-xs text-fg-muted">Notes</dt>
                  <dd className="text-xs">{selected.notes}</dd>
                </div>
              ) : null}
            </dl>
          ) : (
            <p className="text-fg-muted">Select a finding to see its evidence and the seats that produced it.</p>
          )}
        </aside>
      </div>
    </div>
  );
}
