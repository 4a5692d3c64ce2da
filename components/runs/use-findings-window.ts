"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { z } from "zod";
import { callApi, errorMessage } from "@/lib/api/client";
import { runRoutes, type findingRowSchema, type findingsPageSchema } from "@/lib/deep-context/schemas";

type FindingsPage = z.infer<typeof findingsPageSchema>;
type FindingRow = z.infer<typeof findingRowSchema>;

/** Rows per request; the virtual list asks for the blocks it is about to draw. */
export const FINDINGS_BLOCK = 200;

export interface FindingsFilters {
  bucket: string;
  kind: string;
  executor: string;
  minAgreement: number;
  minRelevance: number;
  contradicted: boolean;
  q: string;
  sort: "agreement" | "relevance" | "path" | "firstIteration";
}

export const DEFAULT_FILTERS: FindingsFilters = { bucket: "", kind: "", executor: "", minAgreement: 0, minRelevance: 0, contradicted: false, q: "", sort: "agreement" };

export function filtersToParams(f: FindingsFilters): URLSearchParams {
  const p = new URLSearchParams();
  if (f.bucket) p.set("bucket", f.bucket);
  if (f.kind) p.set("kind", f.kind);
  if (f.executor) p.set("executor", f.executor);
  if (f.minAgreement) p.set("minAgreement", String(f.minAgreement));
  if (f.minRelevance) p.set("minRelevance", String(f.minRelevance));
  if (f.contradicted) p.set("contradicted", "1");
  if (f.q.trim()) p.set("q", f.q.trim());
  if (f.sort !== "agreement") p.set("sort", f.sort);
  return p;
}

export function filtersFromParams(p: URLSearchParams): FindingsFilters {
  const sort = p.get("sort");
  return {
    bucket: p.get("bucket") ?? "",
    kind: p.get("kind") ?? "",
    executor: p.get("executor") ?? "",
    minAgreement: Number(p.get("minAgreement")) || 0,
    minRelevance: Number(p.get("minRelevance")) || 0,
    contradicted: p.get("contradicted") === "1",
    q: p.get("q") ?? "",
    sort: sort === "relevance" || sort === "path" || sort === "firstIteration" ? sort : "agreement",
  };
}

const sameFilters = (a: FindingsFilters, b: FindingsFilters) => filtersToParams(a).toString() === filtersToParams(b).toString();

/** The findings API's query for these filters: the same parameters as filtersToParams, defaults left out. */
function findingsQuery(f: FindingsFilters) {
  return {
    bucket: f.bucket || undefined,
    kind: f.kind || undefined,
    executor: f.executor || undefined,
    minAgreement: f.minAgreement || undefined,
    minRelevance: f.minRelevance || undefined,
    contradicted: f.contradicted ? ("1" as const) : undefined,
    q: f.q.trim() || undefined,
    sort: f.sort !== "agreement" ? f.sort : undefined,
  };
}

/**
 * The findings matching `filters`, fetched block by block from the findings API as the
 * list needs them. `first` is the server-rendered first block for the default filters, so
 * the page is usable before any request.
 */
export function useFindingsWindow(run: { id: string; runId: string }, filters: FindingsFilters, first: FindingsPage) {
  const { id, runId } = run;
  const filterKey = filtersToParams(filters).toString();
  const isDefault = sameFilters(filters, DEFAULT_FILTERS);
  // A new server block (the run changed on disk and the page refreshed) invalidates every block.
  const [generation, setGeneration] = useState(0);
  const firstSeen = useRef(first);
  useEffect(() => {
    if (firstSeen.current !== first) {
      firstSeen.current = first;
      setGeneration((g) => g + 1);
    }
  }, [first]);
  const key = `${generation}|${filterKey}`;
  const fresh = useCallback(
    (k: string) => ({ key: k, matched: isDefault ? first.matched : null, blocks: isDefault ? new Map([[0, first.rows]]) : new Map<number, FindingRow[]>(), error: null as string | null }),
    [isDefault, first],
  );
  const [state, setState] = useState(() => fresh(key));
  const current = state.key === key ? state : fresh(key);
  useEffect(() => {
    setState((s) => (s.key === key ? s : fresh(key)));
  }, [key, fresh]);

  const inflight = useRef(new Set<string>());
  const loadBlock = useCallback(
    (block: number) => {
      const blockId = `${key}#${block}`;
      if (inflight.current.has(blockId)) return;
      inflight.current.add(blockId);
      const query = { ...findingsQuery(filtersFromParams(new URLSearchParams(filterKey))), offset: block * FINDINGS_BLOCK, limit: FINDINGS_BLOCK };
      callApi(runRoutes.findings, { params: { id, runId }, query })
        .then((body) => {
          setState((s) => {
            const base = s.key === key ? s : fresh(key);
            return { ...base, matched: body.matched, blocks: new Map(base.blocks).set(block, body.rows), error: null };
          });
        })
        .catch((e: unknown) => setState((s) => ({ ...(s.key === key ? s : fresh(key)), error: errorMessage(e) })))
        .finally(() => inflight.current.delete(blockId));
    },
    [id, runId, key, filterKey, fresh],
  );

  useEffect(() => {
    if (!current.blocks.has(0)) loadBlock(0);
  }, [current.blocks, loadBlock]);

  const row = useCallback((index: number): FindingRow | undefined => current.blocks.get(Math.floor(index / FINDINGS_BLOCK))?.[index % FINDINGS_BLOCK], [current.blocks]);
  const ensure = useCallback(
    (from: number, to: number) => {
      for (let b = Math.floor(from / FINDINGS_BLOCK); b <= Math.floor(to / FINDINGS_BLOCK); b++) if (!current.blocks.has(b)) loadBlock(b);
    },
    [current.blocks, loadBlock],
  );
  return { matched: current.matched, row, ensure, error: current.error, loading: !current.blocks.has(0) };
}
