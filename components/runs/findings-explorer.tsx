"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef, useState } from "react";
import type { EvidenceCheck } from "@/lib/deep-context/evidence";
import { Badge } from "@/components/ui/badge";
import { Input } from "@/components/ui/input";
import type { FindingRow } from "@/lib/deep-context/run-view";

type SortKey = "agreement" | "relevance" | "path" | "firstIteration";
const ROW_HEIGHT = 36;

/** Every bucket and lowConfidence, filtered and sorted in the browser, drawn virtually. */
export function FindingsExplorer({ projectId, findings, executors }: { projectId: string; findings: FindingRow[]; executors: string[] }) {
  const [bucket, setBucket] = useState("");
  const [kind, setKind] = useState("");
  const [executor, setExecutor] = useState("");
  const [minAgreement, setMinAgreement] = useState(0);
  const [minRelevance, setMinRelevance] = useState(0);
  const [onlyContradicted, setOnlyContradicted] = useState(false);
  const [text, setText] = useState("");
  const [sort, setSort] = useState<SortKey>("agreement");
  const [selected, setSelected] = useState<FindingRow | null>(null);
  const [check, setCheck] = useState<EvidenceCheck | null>(null);
  useEffect(() => {
    setCheck(null);
    if (!selected) return;
    const ctrl = new AbortController();
    const qs = new URLSearchParams({ path: selected.path, symbol: selected.symbol, evidence: selected.evidence });
    fetch(`/api/v1/projects/${projectId}/evidence?${qs}`, { signal: ctrl.signal })
      .then((r) => r.json() as Promise<{ check?: EvidenceCheck }>)
      .then((b) => setCheck(b.check ?? null))
      .catch(() => undefined);
    return () => ctrl.abort();
  }, [selected, projectId]);
  const buckets = useMemo(() => [...new Set(findings.map((f) => f.bucket))], [findings]);
  const kinds = useMemo(() => [...new Set(findings.map((f) => f.kind))].sort(), [findings]);

  const rows = useMemo(() => {
    const q = text.trim().toLowerCase();
    const out = findings.filter(
      (f) =>
        (!bucket || f.bucket === bucket) &&
        (!kind || f.kind === kind) &&
        (!executor || f.producedBy.includes(executor)) &&
        f.agreement >= minAgreement &&
        f.relevance >= minRelevance &&
        (!onlyContradicted || f.contradicted) &&
        (!q || f.path.toLowerCase().includes(q) || f.symbol.toLowerCase().includes(q)),
    );
    const cmp: Record<SortKey, (a: FindingRow, b: FindingRow) => number> = {
      agreement: (a, b) => b.agreement - a.agreement || b.relevance - a.relevance,
      relevance: (a, b) => b.relevance - a.relevance || b.agreement - a.agreement,
      path: (a, b) => a.path.localeCompare(b.path) || a.symbol.localeCompare(b.symbol),
      firstIteration: (a, b) => a.firstIteration - b.firstIteration,
    };
    return out.sort(cmp[sort]);
  }, [findings, bucket, kind, executor, minAgreement, minRelevance, onlyContradicted, text, sort]);

  const parent = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => parent.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const select = "h-9 rounded-md border border-border bg-surface px-2 text-sm";

  return (
    <div className="space-y-3" data-testid="findings-explorer">
      <div className="flex flex-wrap items-end gap-3" role="search" aria-label="Filter findings">
        <label className="text-xs text-fg-muted">
          Bucket
          <select className={`${select} ml-0 block`} value={bucket} onChange={(e) => setBucket(e.target.value)} aria-label="Bucket">
            <option value="">All</option>
            {buckets.map((b) => (
              <option key={b}>{b}</option>
            ))}
          </select>
        </label>
        <label className="text-xs text-fg-muted">
          Kind
          <select className={`${select} block`} value={kind} onChange={(e) => setKind(e.target.value)} aria-label="Kind">
            <option value="">All</option>
            {kinds.map((k) => (
              <option key={k}>{k}</option>
            ))}
          </select>
        </label>
        <label className="text-xs text-fg-muted">
          Executor
          <select className={`${select} block`} value={executor} onChange={(e) => setExecutor(e.target.value)} aria-label="Executor">
            <option value="">All</option>
            {executors.map((x) => (
              <option key={x}>{x}</option>
            ))}
          </select>
        </label>
        <label className="text-xs text-fg-muted">
          Min agreement
          <input className={`${select} block w-20`} type="number" min={0} max={executors.length} value={minAgreement} onChange={(e) => setMinAgreement(Number(e.target.value) || 0)} />
        </label>
        <label className="text-xs text-fg-muted">
          Min relevance
          <input className={`${select} block w-24`} type="number" min={0} max={1} step={0.05} value={minRelevance} onChange={(e) => setMinRelevance(Number(e.target.value) || 0)} />
        </label>
        <label className="flex h-9 items-center gap-1.5 text-sm">
          <input type="checkbox" checked={onlyContradicted} onChange={(e) => setOnlyContradicted(e.target.checked)} /> contradicted only
        </label>
        <label className="text-xs text-fg-muted">
          Sort
          <select className={`${select} block`} value={sort} onChange={(e) => setSort(e.target.value as SortKey)} aria-label="Sort">
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
          <Input id="finding-text" type="search" value={text} onChange={(e) => setText(e.target.value)} />
        </div>
      </div>
      <p className="text-xs text-fg-muted" aria-live="polite">
        {rows.length.toLocaleString("en")} of {findings.length.toLocaleString("en")} findings
      </p>
      <div className="grid gap-3 lg:grid-cols-[1fr_22rem]">
        <div ref={parent} className="h-[28rem] overflow-auto rounded-md border border-border" role="table" aria-label="Findings" aria-rowcount={rows.length}>
          <div role="row" className="sticky top-0 z-10 grid grid-cols-[1fr_9rem_5rem_5rem_4rem] gap-2 border-b border-border bg-surface px-3 py-2 text-xs font-medium text-fg-muted">
            <span role="columnheader">Symbol · path</span>
            <span role="columnheader">Kind</span>
            <span role="columnheader">Agree</span>
            <span role="columnheader">Relev.</span>
            <span role="columnheader">Iter.</span>
          </div>
          <div style={{ height: virtual.getTotalSize(), position: "relative" }}>
            {virtual.getVirtualItems().map((v) => {
              const f = rows[v.index]!;
              return (
                <button
                  type="button"
                  role="row"
                  key={f.unit_id + f.bucket}
                  onClick={() => setSelected(f)}
                  className={`absolute left-0 grid w-full grid-cols-[1fr_9rem_5rem_5rem_4rem] items-center gap-2 border-b border-border px-3 text-left text-xs hover:bg-muted ${selected?.unit_id === f.unit_id ? "bg-accent/10" : ""}`}
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
                  <span role="cell" className="tabular-nums">{f.relevance.toFixed(2)}</span>
                  <span role="cell" className="tabular-nums">{f.firstIteration}</span>
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
                      <Badge tone={check.status === "verified" ? "ok" : check.status === "stale" ? "warn" : "danger"}>{check.status}</Badge>{" "}
                      <span className="text-xs text-fg-muted">{check.reason}</span>
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
