/**
 * Derives a coverage graph (loop_type=context, FORMATS.md 1.6) from merged findings when a packet
 * has no stored graph. The result is marked origin "derived".
 *
 * Nodes
 *   SLICE            one per iteration focus (or per entry of an iteration's `slices` list)
 *   FILE             one per finding path              id file:<path>
 *   SYMBOL           one per path:symbol               id symbol:<path>:<symbol>
 *   finding node     one per merged unit               id unit:<unit_id>, kind by FINDING_KIND_TO_NODE_KIND,
 *                    metadata.confirmations = agreement, metadata.relevance, metadata.iteration = firstIteration
 * Edges (weights from CONTEXT_WEIGHTS; no self-loops; both endpoints always exist)
 *   CONTAINS    SLICE → FILE              the slice of every iteration the unit was seen in contains its file
 *   EXPOSES     FILE → SYMBOL
 *   COVERED_BY  SLICE → finding node      the slice was swept and produced this unit
 *   DEPENDS_ON  SYMBOL → DEPENDENCY       dependency findings (the DEPENDENCY is the target)
 *   IMPLEMENTS  SYMBOL → CONSTRAINT       integration-point findings
 *   CONFIRMS    SYMBOL → REUSE_CANDIDATE  only when agreement ≥ agreementMin (cross-executor confirmation)
 *
 * Kind mapping, chosen to fit the three signal finding kinds (REUSE_CANDIDATE, PATTERN, CONSTRAINT):
 *   reuse_candidate → REUSE_CANDIDATE; convention → PATTERN (the catalog: "PATTERN — seat finding with
 *   kind convention"); integration_point → CONSTRAINT (a hard boundary the implementation must respect;
 *   seats have no "constraint" kind, and integration points are what the report marks [HARD]);
 *   dependency → DEPENDENCY; gap → GAP; an unknown kind → REUSE_CANDIDATE (the reducer's fallback bucket).
 * So integration points count in agreementRate/relevanceFloor; dependencies and gaps do not.
 */
import type { CoverageGraph, GraphEdge, GraphNode, GraphNodeKind, GraphRelation } from "../types";
import { AGREEMENT_MIN, CONTEXT_WEIGHTS } from "./constants";
import type { Memo } from "../memo";
import type { DerivableUnit } from "./seat-merge-lite";

export const FINDING_KIND_TO_NODE_KIND: Readonly<Record<string, GraphNodeKind>> = {
  reuse_candidate: "REUSE_CANDIDATE",
  convention: "PATTERN",
  integration_point: "CONSTRAINT",
  dependency: "DEPENDENCY",
  gap: "GAP",
};

export function nodeKindForFinding(kind: string): GraphNodeKind {
  return FINDING_KIND_TO_NODE_KIND[kind.trim()] ?? "REUSE_CANDIDATE";
}

export interface DeriveIteration {
  run: number;
  focus?: string;
  slices?: string[];
}

export interface DeriveInput {
  units: readonly DerivableUnit[];
  iterations?: readonly DeriveIteration[];
  agreementMin?: number;
}

export const sliceId = (label: string) => `slice:${label.replace(/\s+/g, " ").trim()}`;
export const fileId = (p: string) => `file:${p}`;
export const symbolId = (p: string, s: string) => `symbol:${p}:${s}`;
export const unitNodeId = (unitId: string) => `unit:${unitId}`;

interface UnitPart {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/**
 * Where to keep the nodes and edges made from the units (everything but the SLICE nodes)
 * between derivations: `version` stands for the units (null: do not keep). They depend on the
 * iterations only through the slices of the runs the units were seen in, so a state line that
 * adds an iteration without findings, or an event, reuses them: on a 100,000-finding packet
 * that is most of a live update's time.
 */
export interface UnitPartCache {
  memo: Memo;
  slot: string;
  version: string | null;
}

const runsOf = (u: DerivableUnit): readonly number[] => (u.iterations && u.iterations.length > 0 ? u.iterations : [u.firstIteration]);

export function deriveCoverageGraph(input: DeriveInput, cache?: UnitPartCache): CoverageGraph {
  const agreementMin = input.agreementMin ?? AGREEMENT_MIN;
  const sliceNodes = new Map<string, GraphNode>();
  const slicesByRun = new Map<number, string[]>();
  for (const it of [...(input.iterations ?? [])].sort((a, b) => a.run - b.run)) {
    const labels = (it.slices && it.slices.length > 0 ? it.slices : it.focus ? [it.focus] : []).map((l) => l.trim()).filter(Boolean);
    const ids = labels.map((label) => {
      const id = sliceId(label);
      if (!sliceNodes.has(id)) sliceNodes.set(id, { id, kind: "SLICE", label, metadata: { iteration: it.run } });
      return id;
    });
    // Appended in place: a hostile log can repeat one run's record many thousand times.
    const list = slicesByRun.get(it.run);
    if (list) for (const id of ids) list.push(id);
    else slicesByRun.set(it.run, ids);
  }

  const derive = () => deriveUnitPart(input.units, slicesByRun, agreementMin);
  let part: UnitPart;
  if (!cache) {
    part = derive();
  } else {
    const runs = new Set<number>();
    for (const u of input.units) for (const r of runsOf(u)) runs.add(r);
    // String(agreementMin) keeps NaN and ±Infinity apart (JSON would write null for all three).
    const inputs = `${String(agreementMin)}\u0001${JSON.stringify([...runs].map((r) => slicesByRun.get(r) ?? []))}`;
    part = cache.memo.get(cache.slot, cache.version === null ? null : `${cache.version}\u0001${inputs}`, derive);
  }
  return { nodes: [...sliceNodes.values(), ...part.nodes], edges: part.edges.slice(), origin: "derived" };
}

function deriveUnitPart(units: readonly DerivableUnit[], slicesByRun: ReadonlyMap<number, string[]>, agreementMin: number): UnitPart {
  const nodes = new Map<string, GraphNode>();
  const edges = new Map<string, GraphEdge>();
  const slices = new Set<string>();
  for (const ids of slicesByRun.values()) for (const id of ids) slices.add(id);
  const addNode = (node: GraphNode) => {
    if (!nodes.has(node.id)) nodes.set(node.id, node);
    return node.id;
  };
  const addEdge = (source: string, target: string, relation: GraphRelation) => {
    if (source === target || !(nodes.has(source) || slices.has(source)) || !(nodes.has(target) || slices.has(target))) return;
    const id = `${relation}:${source}->${target}`;
    if (!edges.has(id)) edges.set(id, { id, source, target, relation, weight: CONTEXT_WEIGHTS[relation] });
  };

  // Units seen in the same runs share their slices, and most files hold several units: the
  // slice lists and the CONTAINS pairs already made are kept so a 100,000-finding packet does
  // not rebuild them (and their edge ids) per unit. The graph is the same either way.
  const slicesOfRuns = new Map<string, string[]>();
  const contained = new Map<string, Set<string>>();
  for (const u of units) {
    const p = u.path.trim();
    const s = u.symbol.trim();
    const runs = runsOf(u);
    const runsKey = runs.join(",");
    let unitSlices = slicesOfRuns.get(runsKey);
    if (unitSlices === undefined) {
      unitSlices = [...new Set(runs.flatMap((r) => slicesByRun.get(r) ?? []))];
      slicesOfRuns.set(runsKey, unitSlices);
    }
    const fid = p ? fileId(p) : null;
    if (fid !== null && !nodes.has(fid)) nodes.set(fid, { id: fid, kind: "FILE", label: p, metadata: { iteration: u.firstIteration } });
    const sid = s ? symbolId(p, s) : null;
    if (sid !== null && !nodes.has(sid)) nodes.set(sid, { id: sid, kind: "SYMBOL", label: p ? `${p}:${s}` : s, metadata: { iteration: u.firstIteration } });
    const kind = nodeKindForFinding(u.kind);
    const metadata: GraphNode["metadata"] = {
      confirmations: u.agreement,
      relevance: u.relevance,
      iteration: u.firstIteration,
      findingKind: u.kind,
      path: u.path,
      symbol: u.symbol,
      producedBy: [...u.producedBy],
    };
    if (u.verified === true) metadata.verified = true;
    const nid = addNode({ id: unitNodeId(u.unit_id), kind, label: s || p || u.unit_id, metadata });

    if (fid) {
      for (const sl of unitSlices) {
        let files = contained.get(sl);
        if (files === undefined) contained.set(sl, (files = new Set()));
        if (files.has(fid)) continue;
        files.add(fid);
        addEdge(sl, fid, "CONTAINS");
      }
    }
    if (fid && sid) addEdge(fid, sid, "EXPOSES");
    for (const sl of unitSlices) addEdge(sl, nid, "COVERED_BY");
    if (sid && kind === "DEPENDENCY") addEdge(sid, nid, "DEPENDS_ON");
    if (sid && kind === "CONSTRAINT") addEdge(sid, nid, "IMPLEMENTS");
    if (sid && kind === "REUSE_CANDIDATE" && u.agreement >= agreementMin) addEdge(sid, nid, "CONFIRMS");
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}
