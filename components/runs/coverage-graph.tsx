"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import type { Core } from "cytoscape";

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

/** The coverage graph drawn with Cytoscape (force layout), filterable by node kind and relation. */
export function CoverageGraph({ graph }: { graph: DrawnGraph }) {
  const box = useRef<HTMLDivElement>(null);
  const kinds = useMemo(() => [...new Set(graph.nodes.map((n) => n.kind))].sort(), [graph]);
  const relations = useMemo(() => [...new Set(graph.edges.map((e) => e.relation))].sort(), [graph]);
  const [hiddenKinds, setHiddenKinds] = useState<Set<string>>(new Set());
  const [hiddenRelations, setHiddenRelations] = useState<Set<string>>(new Set());
  const [selected, setSelected] = useState<string | null>(null);

  useEffect(() => {
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
            return { data: { id: n.id, label: short.length > 28 ? `${short.slice(0, 27)}…` : short, kind: n.kind } };
          }),
          ...edges.map((e) => ({ data: { id: e.id, source: e.source, target: e.target, relation: e.relation } })),
        ],
        style: [
          { selector: "node", style: { "background-color": (el) => KIND_COLOR[el.data("kind") as string] ?? "#888", label: "data(label)", "font-size": 8, color: "#64748b", width: 12, height: 12 } },
          { selector: "edge", style: { width: 1, "line-color": "#cbd5e1", "target-arrow-color": "#cbd5e1", "target-arrow-shape": "triangle", "curve-style": "bezier", "arrow-scale": 0.6 } },
          { selector: "node:selected", style: { "border-width": 2, "border-color": "#111827" } },
        ],
        layout: { name: "cose", animate: false, nodeRepulsion: () => 6000, idealEdgeLength: () => 40 },
        wheelSensitivity: 0.3,
      });
      cy.on("tap", "node", (evt) => setSelected(`${evt.target.data("kind")} · ${evt.target.id()}`));
    });
    return () => {
      cancelled = true;
      cy?.destroy();
    };
  }, [graph, hiddenKinds, hiddenRelations]);

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
      <div ref={box} className="h-[32rem] rounded-md border border-border bg-surface" role="img" aria-label={`Coverage graph: ${graph.nodes.length} nodes, ${graph.edges.length} edges`} data-testid="coverage-graph" />
      <p className="text-xs text-fg-muted" aria-live="polite">
        {selected ? `Selected: ${selected}` : "Click a node to see what it is."}
        {graph.truncated ? " Only the best-connected nodes are drawn." : ""}
      </p>
    </div>
  );
}
