/// <reference lib="webworker" />
/**
 * Lays out the coverage graph off the main thread: a force layout of a few hundred nodes
 * takes seconds, and on the main thread it would freeze the whole run page meanwhile.
 */
import cytoscape from "cytoscape";

export interface LayoutRequest {
  nodes: { id: string }[];
  edges: { id: string; source: string; target: string }[];
}
export type LayoutResponse = { positions: Record<string, { x: number; y: number }> } | { error: string };

self.onmessage = (event: MessageEvent<LayoutRequest>) => {
  try {
    const { nodes, edges } = event.data;
    const cy = cytoscape({
      headless: true,
      styleEnabled: false,
      elements: [...nodes.map((n) => ({ data: { id: n.id } })), ...edges.map((e) => ({ data: { id: e.id, source: e.source, target: e.target } }))],
    });
    cy.layout({ name: "cose", animate: false, randomize: true, nodeRepulsion: () => 6000, idealEdgeLength: () => 40, boundingBox: { x1: 0, y1: 0, w: 1200, h: 800 } }).run();
    const positions: Record<string, { x: number; y: number }> = {};
    cy.nodes().forEach((n) => {
      positions[n.id()] = n.position();
    });
    cy.destroy();
    (self as unknown as Worker).postMessage({ positions } satisfies LayoutResponse);
  } catch (e) {
    (self as unknown as Worker).postMessage({ error: e instanceof Error ? e.message : String(e) } satisfies LayoutResponse);
  }
};
