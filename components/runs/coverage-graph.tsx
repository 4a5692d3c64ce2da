"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import type { Core } from "cytoscape";
import { callApi, errorMessage } from "@/lib/api/client";
import { runRoutes } from "@/lib/deep-context/schemas";
import type { LayoutRequest, LayoutResponse } from "./graph-layout.worker";
import { plural } from "@/lib/core/plural";

export interface DrawnGraph {
  nodes: { id: string; kind: string; label: string }[];
  edges: { id: string; source: string; target: string; relation: string }[];
  truncated: boolean;
}

const KIND_COLOR: Record<string, string> = {
  SLICE: "#7c3aed",
  FILE: "#64748b",
  SYMBOL: "#0891b2",
  PATTERN: "#d97706",
  REUSE_CANDIDATE: "#16a34a",
  DEPENDENCY: "#db2777",
  CONSTRAINT: "#dc2626",
  GAP: "#a3a3a3",
};

/**
 * The coverage graph of a run, fetched when it scrolls into view (a large run's
 * drawing is most of a megabyte the page need not wait for), then drawn.
 */
export function CoverageGraph({ projectId, runId, nodeCount, edgeCount }: { projectId: string; runId: string; nodeCount: number; edgeCount: number }) {
  const placeholder = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<{ graph: DrawnGraph } | { error: string } | null>(null);
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    const el = placeholder.current;
    if (!el || wanted) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setWanted(true);
      },
      { rootMargin: "200px" },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [wanted]);
  useEffect(() => {
    if (!wanted) return;
    const ctrl = new AbortController();
    callApi(runRoutes.graph, { params: { id: projectId, runId }, signal: ctrl.signal })
      .then((graph) => setState({ graph }))
      .catch((e: unknown) => {
        if (!ctrl.signal.aborted) setState({ error: errorMessage(e) });
      });
    return () => ctrl.abort();
  }, [wanted, projectId, runId]);
  if (state && "graph" in state) return <DrawnCoverageGraph graph={state.graph} />;
  return (
    <div
      ref={placeholder}
      className="flex h-[32rem] items-center justify-center rounded-md border border-border bg-surface text-sm text-fg-muted"
      role="img"
      aria-label={`Coverage graph: ${plural(nodeCount, "node")}, ${plural(edgeCount, "edge")}`}
      data-testid="coverage-graph"
    >
      {state && "error" in state ? `The graph could not be loaded: ${state.error}` : wanted ? "Loading the graph…" : `${plural(nodeCount, "node")}: drawn when scrolled into view`}
    </div>
  );
}

/** The graph drawn with Cytoscape (force layout in a worker), filterable by node kind and relation. */
function DrawnCoverageGraph({ graph }: { graph: DrawnGraph }) {
  const box = useRef<HTMLDivElement>(null);
  const kinds = useMemo(() => [...new Set(graph.nodes.map((n) => n.kind))].sort(), [graph]);
  const relations = useMemo(() => [...new Set(graph.edges.map((e) => e.relation))].sort(), [graph]);
  const [hiddenKinds, setHiddenKinds] = useState<Set<string>>(new Set());
  const [hiddenRelations, setHiddenRelations] = useState<Set<string>>(new Set());
  const [selected, setSelected] = useState<string | null>(null);

  // Layout once per graph, in a worker, and only when the graph scrolls into view; filters
  // then reuse the positions, so toggling a kind does not move the rest.
  const [visible, setVisible] = useState(false);
  const [layout, setLayout] = useState<{ graph: DrawnGraph; positions: Record<string, { x: number; y: number }> } | { graph: DrawnGraph; error: string } | null>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || visible) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setVisible(true);
      },
      { rootMargin: "200px" },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [visible]);
  useEffect(() => {
    if (!visible || graph.nodes.length === 0) return;
    const worker = new Worker(new URL("./graph-layout.worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (e: MessageEvent<LayoutResponse>) => {
      setLayout("positions" in e.data ? { graph, positions: e.data.positions } : { graph, error: e.data.error });
      worker.terminate();
    };
    worker.onerror = (e) => {
      setLayout({ graph, error: e.message || "the layout worker failed" });
      worker.terminate();
    };
    worker.postMessage({ nodes: graph.nodes.map((n) => ({ id: n.id })), edges: graph.edges.map((e) => ({ id: e.id, source: e.source, target: e.target })) } satisfies LayoutRequest);
    return () => worker.terminate();
  }, [visible, graph]);
  const positions = layout && layout.graph === graph && "positions" in layout ? layout.positions : null;
  const layoutError = layout && layout.graph === graph && "error" in layout ? layout.error : null;

  useEffect(() => {
    if (!positions) return;
    let cy: Core | null = null;
    let cancelled = false;
    void import("cytoscape").then(({ default: cytoscape }) => {
      if (cancelled || !box.current) return;
      const nodes = graph.nodes.filter((n) => !hiddenKinds.has(n.kind));
      const ids = new Set(nodes.map((n) => n.id));
      const edges = graph.edges.filter((e) => !hiddenRelations.has(e.relation) && ids.has(e.source) && ids.has(e.target));
      cy = cytoscape({
        container: box.current,
        elements: [
          ...nodes.map((n) => {
            // File and symbol labels are long paths; the last segment is what people scan for.
            const short = n.label.split("/").pop() ?? n.label;
            return { data: { id: n.id, label: short.length > 28 ? `${short.slice(0, 27)}…` : short, kind: n.kind }, position: positions[n.id] ?? { x: 0, y: 0 } };
          }),
          ...edges.map((e) => ({ data: { id: e.id, source: e.source, target: e.target, relation: e.relation } })),
        ],
        style: [
          { selector: "node", style: { "background-color": (el) => KIND_COLOR[el.data("kind") as string] ?? "#888", label: "data(label)", "font-size": 8, color: "#64748b", width: 12, height: 12 } },
          { selector: "edge", style: { width: 1, "line-color": "#cbd5e1", "target-arrow-color": "#cbd5e1", "target-arrow-shape": "triangle", "curve-style": "bezier", "arrow-scale": 0.6 } },
          { selector: "node:selected", style: { "border-width": 2, "border-color": "#111827" } },
        ],
        layout: { name: "preset", fit: true, padding: 20 },
      });
      cy.on("tap", "node", (evt) => setSelected(`${evt.target.data("kind")} · ${evt.target.id()}`));
    });
    return () => {
      cancelled = true;
      cy?.destroy();
    };
  }, [graph, positions, hiddenKinds, hiddenRelations]);

  const toggle = (set: Set<string>, v: string, update: (s: Set<string>) => void) => {
    const next = new Set(set);
    if (next.has(v)) next.delete(v);
    else next.add(v);
    update(next);
  };

  return (
    <div className="space-y-2">
      <fieldset className="flex flex-wrap gap-3 text-xs">
        <legend className="sr-only">Node kinds</legend>
        {kinds.map((k) => (
          <label key={k} className="flex items-center gap-1">
            <input type="checkbox" checked={!hiddenKinds.has(k)} onChange={() => toggle(hiddenKinds, k, setHiddenKinds)} />
            <span className="inline-block size-2.5 rounded-full" style={{ background: KIND_COLOR[k] ?? "#888" }} aria-hidden />
            {k} ({graph.nodes.filter((n) => n.kind === k).length})
          </label>
        ))}
      </fieldset>
      <fieldset className="flex flex-wrap gap-3 text-xs">
        <legend className="sr-only">Relations</legend>
        {relations.map((r) => (
          <label key={r} className="flex items-center gap-1">
            <input type="checkbox" checked={!hiddenRelations.has(r)} onChange={() => toggle(hiddenRelations, r, setHiddenRelations)} />
            {r}
          </label>
        ))}
      </fieldset>
      <div className="relative">
        <div
          ref={box}
          className="h-[32rem] rounded-md border border-border bg-surface"
          role="img"
          aria-label={`Coverage graph: ${plural(graph.nodes.length, "node")}, ${plural(graph.edges.length, "edge")}`}
          data-testid="coverage-graph"
          data-laid-out={positions ? "true" : undefined}
        />
        {!positions ? (
          <p className="pointer-events-none absolute inset-0 flex items-center justify-center text-sm text-fg-muted">
            {graph.nodes.length === 0 ? "The graph has no nodes." : layoutError ? `The graph could not be laid out: ${layoutError}` : `Laying out ${plural(graph.nodes.length, "node")}…`}
          </p>
        ) : null}
      </div>
      <p className="text-xs text-fg-muted" aria-live="polite">
        {selected ? `Selected: ${selected}` : "Click a node to see what it is."}
        {graph.truncated ? " Only the best-connected nodes are drawn." : ""}
      </p>
    </div>
  );
}
