/**
 * A stored coverage graph as a JSON file. The reference runtime keeps the graph in SQLite
 * (deep-loop-graph.sqlite); the Workbench reads an exported JSON copy instead, by default at
 * `{packet}/coverage-graph.json` (GRAPH_FILE_NAME). Both the Workbench shape
 * ({id,kind,label,metadata} / {id,source,target,relation,weight}) and the runtime's row shape
 * ({id,kind,name,metadata} / {sourceId,targetId,relation,weight}, metadata possibly a JSON string)
 * are accepted. Edges whose endpoints are missing, and self-loops, are dropped with a warning, as
 * the database's foreign keys and CHECK would reject them; weights are clamped to [0, 2].
 */
import { z } from "zod";
import type { CoverageGraph, GraphEdge, GraphNode, GraphNodeKind, GraphRelation } from "../types";
import { CONTEXT_WEIGHTS } from "./constants";
import { formatIssues } from "./jsonl-lines";

export const GRAPH_FILE_NAME = "coverage-graph.json";

const NODE_KINDS = ["SLICE", "FILE", "SYMBOL", "PATTERN", "REUSE_CANDIDATE", "DEPENDENCY", "CONSTRAINT", "GAP"] as const satisfies readonly GraphNodeKind[];
const RELATIONS = Object.keys(CONTEXT_WEIGHTS) as [GraphRelation, ...GraphRelation[]];

const metadataSchema = z
  .union([z.record(z.string(), z.unknown()), z.string(), z.null()])
  .optional()
  .describe("node metadata (confirmations, relevance, verified, iteration, ...); an object or its JSON text");

export const graphNodeFileSchema = z
  .object({
    id: z.string().min(1).describe("node id, unique within the graph"),
    kind: z.enum(NODE_KINDS).describe("context node kind"),
    label: z.string().optional().describe("display label (Workbench shape)"),
    name: z.string().optional().describe("display label (runtime row shape)"),
    metadata: metadataSchema,
  })
  .loose()
  .describe("one coverage-graph node");

export const graphEdgeFileSchema = z
  .object({
    id: z.string().optional().describe("edge id; generated from relation and endpoints when absent"),
    source: z.string().optional().describe("source node id (Workbench shape)"),
    target: z.string().optional().describe("target node id (Workbench shape)"),
    sourceId: z.string().optional().describe("source node id (runtime row shape)"),
    targetId: z.string().optional().describe("target node id (runtime row shape)"),
    relation: z.enum(RELATIONS).describe("context relation"),
    weight: z.number().optional().describe("edge weight in [0, 2]; defaults to CONTEXT_WEIGHTS[relation]"),
  })
  .loose()
  .describe("one coverage-graph edge");

export const graphFileSchema = z
  .object({
    nodes: z.array(graphNodeFileSchema).describe("graph nodes"),
    edges: z.array(graphEdgeFileSchema).default([]).describe("graph edges"),
  })
  .loose()
  .describe("an exported coverage graph (loop_type=context)");

function parseMetadata(m: unknown): GraphNode["metadata"] {
  if (typeof m === "string") {
    try {
      const v: unknown = JSON.parse(m);
      return v && typeof v === "object" && !Array.isArray(v) ? (v as GraphNode["metadata"]) : {};
    } catch {
      return {};
    }
  }
  return m && typeof m === "object" ? (m as GraphNode["metadata"]) : {};
}

/** Parses an exported graph; throws an Error naming the first invalid field. */
export function parseGraphFile(body: unknown): { graph: CoverageGraph; warnings: string[] } {
  const parsed = graphFileSchema.safeParse(body);
  if (!parsed.success) throw new Error(`invalid coverage graph: ${formatIssues(parsed.error.issues.slice(0, 3))}`);
  const warnings: string[] = [];
  const nodes: GraphNode[] = [];
  const ids = new Set<string>();
  for (const n of parsed.data.nodes) {
    if (ids.has(n.id)) {
      warnings.push(`duplicate node id ${n.id} (kept the first)`);
      continue;
    }
    ids.add(n.id);
    nodes.push({ id: n.id, kind: n.kind, label: n.label ?? n.name ?? n.id, metadata: parseMetadata(n.metadata) });
  }
  const edges: GraphEdge[] = [];
  parsed.data.edges.forEach((e, i) => {
    const source = e.source ?? e.sourceId;
    const target = e.target ?? e.targetId;
    if (!source || !target) return void warnings.push(`edge ${i}: missing source or target`);
    if (!ids.has(source) || !ids.has(target)) return void warnings.push(`edge ${i} (${e.relation}): endpoint not in the graph`);
    if (source === target) return void warnings.push(`edge ${i} (${e.relation}): self-loop dropped`);
    const weight = Math.max(0, Math.min(2, typeof e.weight === "number" && Number.isFinite(e.weight) ? e.weight : CONTEXT_WEIGHTS[e.relation]));
    edges.push({ id: e.id ?? `${e.relation}:${source}->${target}`, source, target, relation: e.relation, weight });
  });
  return { graph: { nodes, edges, origin: "stored" }, warnings };
}
