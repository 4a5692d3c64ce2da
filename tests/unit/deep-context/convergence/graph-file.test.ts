import { describe, expect, it } from "vitest";
import { parseGraphFile } from "../../../../lib/deep-context/convergence/graph-file";
import { computeContextSignals } from "../../../../lib/deep-context/convergence/signals";

describe("parseGraphFile", () => {
  it("reads the Workbench shape and the runtime row shape (sourceId/targetId, name, JSON-text metadata)", () => {
    const { graph, warnings } = parseGraphFile({
      nodes: [
        { id: "s", kind: "SLICE", label: "Slice" },
        { id: "r", kind: "REUSE_CANDIDATE", name: "fn", metadata: '{"confirmations":2,"relevance":0.9}' },
        { id: "x", kind: "PATTERN", metadata: { relevance: 0.2 } },
      ],
      edges: [
        { source: "s", target: "r", relation: "COVERED_BY" },
        { sourceId: "x", targetId: "r", relation: "CONFIRMS", weight: 9 },
      ],
    });
    expect(warnings).toEqual([]);
    expect(graph.origin).toBe("stored");
    expect(graph.nodes.map((n) => n.label)).toEqual(["Slice", "fn", "x"]);
    expect(graph.nodes[1]!.metadata).toEqual({ confirmations: 2, relevance: 0.9 });
    expect(graph.edges.map((e) => [e.relation, e.weight])).toEqual([
      ["COVERED_BY", 1.1],
      ["CONFIRMS", 2],
    ]);
    expect(computeContextSignals(graph)!.sliceCoverage).toBe(1);
  });

  it("drops dangling edges, self-loops and duplicate nodes with warnings", () => {
    const { graph, warnings } = parseGraphFile({
      nodes: [
        { id: "a", kind: "SYMBOL" },
        { id: "a", kind: "FILE" },
        { id: "b", kind: "SYMBOL" },
      ],
      edges: [
        { source: "a", target: "zzz", relation: "REFERENCES" },
        { source: "a", target: "a", relation: "REFERENCES" },
        { source: "a", target: "b", relation: "CONTRADICTS" },
      ],
    });
    expect(graph.nodes.map((n) => n.kind)).toEqual(["SYMBOL", "SYMBOL"]);
    expect(graph.edges).toHaveLength(1);
    expect(warnings).toHaveLength(3);
  });

  it("rejects unknown node kinds and relations with the field named", () => {
    expect(() => parseGraphFile({ nodes: [{ id: "a", kind: "ITERATION" }] })).toThrow(/nodes\.0\.kind/);
    expect(() => parseGraphFile({ nodes: [], edges: [{ source: "a", target: "b", relation: "LIKES" }] })).toThrow(/edges\.0\.relation/);
    expect(() => parseGraphFile([])).toThrow(/invalid coverage graph/);
  });
});
