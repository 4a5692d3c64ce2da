/**
 * From merged units to the registry's buckets (the reference's detectContradictions +
 * buildRegistry): relevance gate, kind buckets, contradictions, sort order, metrics.
 */
import { isFiniteNumber, round3 } from "./text";
import type { Contradiction, RegistryMetrics } from "./types";
import type { Unit } from "./units";

export const DEFAULT_RELEVANCE_GATE = 0.55;
export const DEFAULT_AGREEMENT_MIN = 2;

export const BUCKETS = ["reuseCandidates", "integrationPoints", "conventions", "dependencies", "gaps"] as const;
export type BucketName = (typeof BUCKETS)[number];

export interface RegistryBuckets {
  /** Units at or above the gate, by kind (unknown kinds: reuseCandidates), sorted. */
  buckets: Record<BucketName, Unit[]>;
  /** Units below the gate, sorted; each serialised with `droppedBelowGate`. */
  lowConfidence: Unit[];
  contradictions: Contradiction[];
  metrics: RegistryMetrics;
  relevanceGate: number;
  agreementMin: number;
}

/** The reference's `values` map: producer → value, built with plain-object semantics. */
function producerMap(producers: string[], values: string[]): Record<string, string> {
  const map: Record<string, string> = {};
  for (let i = 0; i < producers.length; i++) map[producers[i]!] = values[i]!;
  return map;
}

/**
 * Units with two or more producers whose signature (then reuse verb) has more than one
 * distinct non-empty value: any textual difference counts. Never resolved, only reported.
 */
export function detectContradictions(units: Unit[]): Contradiction[] {
  const out: Contradiction[] = [];
  for (const unit of units) {
    if (unit.agreement < 2) continue;
    contradictionOf(unit, 1, "signature", out);
    contradictionOf(unit, 2, "reuse", out);
  }
  return out;
}

function contradictionOf(unit: Unit, f: 1 | 2, field: "signature" | "reuse", out: Contradiction[]): void {
  // Cheap pre-check on the [producer, signature, reuse] triples; the object below can only have fewer values.
  const a = unit.attribution;
  let first = "";
  let differs = false;
  for (let i = f; i < a.length; i += 3) {
    const v = a[i]!;
    if (!v) continue;
    if (!first) first = v;
    else if (v !== first) {
      differs = true;
      break;
    }
  }
  if (!differs) return;
  // Values are already normalised (normalizeText is idempotent).
  const map = producerMap(unit.producers, unit.valuesOf(f));
  if (new Set(Object.values(map).filter(Boolean)).size > 1) {
    const kept = Object.entries(map).filter(([, v]) => v);
    out.push({ unit_id: unit.unitId, path: unit.path, symbol: unit.symbol, field, values: Object.fromEntries(kept) });
  }
}

/** agreement desc, relevance (rounded) desc, path, symbol (localeCompare). */
function compareUnits(a: Unit, b: Unit): number {
  return b.agreement - a.agreement || b.relevance - a.relevance || a.path.localeCompare(b.path) || a.symbol.localeCompare(b.symbol);
}

export function buildRegistry(units: Unit[], options: { relevanceGate?: unknown; agreementMin?: unknown }): RegistryBuckets {
  const relevanceGate = isFiniteNumber(options.relevanceGate) ? options.relevanceGate : DEFAULT_RELEVANCE_GATE;
  const agreementMin = isFiniteNumber(options.agreementMin) ? options.agreementMin : DEFAULT_AGREEMENT_MIN;
  const buckets: Record<BucketName, Unit[]> = { reuseCandidates: [], integrationPoints: [], conventions: [], dependencies: [], gaps: [] };
  const lowConfidence: Unit[] = [];
  const contradictions = detectContradictions(units);
  let eligible = 0;
  let gated = 0;
  for (const unit of units) {
    unit.relevance = round3(unit.maxRelevance);
    if (unit.maxRelevance < relevanceGate) {
      lowConfidence.push(unit);
      continue;
    }
    gated++;
    if (unit.agreement >= agreementMin) eligible++;
    buckets[BUCKETS[unit.kindIndex] ?? "reuseCandidates"].push(unit);
  }
  for (const name of BUCKETS) buckets[name].sort(compareUnits);
  lowConfidence.sort(compareUnits);
  const total = units.length;
  const metrics: RegistryMetrics = {
    findings: total,
    gatedFindings: gated,
    lowConfidenceFindings: lowConfidence.length,
    agreementEligible: eligible,
    contradictions: contradictions.length,
    agreementRate: gated > 0 ? round3(eligible / gated) : 0,
    relevanceFloor: total > 0 ? round3(gated / total) : 0,
    reuseCandidates: buckets.reuseCandidates.length,
    integrationPoints: buckets.integrationPoints.length,
    conventions: buckets.conventions.length,
    dependencies: buckets.dependencies.length,
    gaps: buckets.gaps.length,
  };
  return { buckets, lowConfidence, contradictions, metrics, relevanceGate, agreementMin };
}
