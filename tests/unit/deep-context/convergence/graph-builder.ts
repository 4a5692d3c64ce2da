import type { CoverageGraph, GraphEdge, GraphNode, GraphNodeKind, GraphRelation } from "../../../../lib/deep-context/types";

/** A tiny fluent builder for coverage graphs in tests. */
export class G {
  nodes: GraphNode[] = [];
  edges: GraphEdge[] = [];

  /** Metadata is loosely typed so tests can feed malformed values (strings, NaN) like real files do. */
  node(id: string, kind: GraphNodeKind, metadata: Record<string, unknown> = {}): this {
    this.nodes.push({ id, kind, label: id, metadata: metadata as GraphNode["metadata"] });
    return this;
  }

  edge(source: string, relation: GraphRelation, target: string): this {
    this.edges.push({ id: `${source}-${relation}-${target}-${this.edges.length}`, source, target, relation, weight: 1 });
    return this;
  }

  build(origin: CoverageGraph["origin"] = "stored"): CoverageGraph {
    return { nodes: [...this.nodes], edges: [...this.edges], origin };
  }
}

export const FIXTURE_SPEC = "/work/shared/fixtures/skilled-agent-harness_spec-driven-loops/.opencode/specs/z_future/sqlite-to-turso";
