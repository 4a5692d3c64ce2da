/**
 * A deliberately small merge of seat findings into MergedUnit[] — only what convergence needs to
 * derive a coverage graph when a packet has no stored graph. It is NOT the reducer
 * (lib/deep-context/reducer/reduce.ts owns findings-registry.json); it follows the same keying so the
 * two agree on unit identity:
 *   unit_id = sha256(norm(path) + ":" + norm(symbol) + ":" + norm(kind)), an explicit unit_id wins;
 *   agreement = distinct producers; relevance = max; firstIteration = min iteration.
 * Producers are unioned, so feeding the same unit from a seat file and from a delta line that
 * already lists that seat does not double-count it.
 */
import { normalizeText, sha256Hex } from "../text";
import { FINDING_KINDS, type MergedUnit } from "../types";

export { normalizeText };

/** A finding as one producer reported it, tagged with where it came from. */
export interface ProducedFinding {
  unit_id?: string;
  path: string;
  symbol: string;
  kind: string;
  relevance: number;
  signature?: string;
  reuse?: string;
  verified?: boolean;
  /** Seat labels that produced it (one for a seat file, several for a merged delta line). */
  producers: string[];
  iteration: number;
}

/** A merged unit plus the iterations it was seen in (for COVERED_BY edges) and verification. */
export interface DerivableUnit extends MergedUnit {
  iterations?: number[];
  verified?: boolean;
}

export interface LiteContradiction {
  unit_id: string;
  path: string;
  symbol: string;
  field: "signature" | "reuse";
  values: Record<string, string>;
}

export function unitIdOf(f: { unit_id?: unknown; path?: unknown; symbol?: unknown; kind?: unknown }, known?: Map<string, string>): string {
  if (typeof f.unit_id === "string" && f.unit_id.trim() !== "") return f.unit_id;
  const key = `${normalizeText(f.path)}:${normalizeText(f.symbol)}:${normalizeText(f.kind || "reuse_candidate")}`;
  // Every executor reports most units: hashing each key once saves three hashes in four.
  let id = known?.get(key);
  if (id === undefined) {
    id = sha256Hex(key);
    known?.set(key, id);
  }
  return id;
}

export function isKnownFindingKind(kind: string): boolean {
  return (FINDING_KINDS as readonly string[]).includes(kind);
}

interface Acc {
  unit: DerivableUnit;
  producers: Set<string>;
  iterations: Set<number>;
  signatureBy: Map<string, string>;
  reuseBy: Map<string, string>;
}

/** Merges produced findings by unit_id. Units come out in first-seen order. */
export function mergeFindingsLite(findings: readonly ProducedFinding[]): { units: DerivableUnit[]; contradictions: LiteContradiction[] } {
  const byId = new Map<string, Acc>();
  const ids = new Map<string, string>();
  for (const f of findings) {
    const id = unitIdOf(f, ids);
    let acc = byId.get(id);
    if (!acc) {
      acc = {
        unit: { unit_id: id, path: f.path, symbol: f.symbol, kind: f.kind, agreement: 0, relevance: f.relevance, producedBy: [], firstIteration: f.iteration },
        producers: new Set(),
        iterations: new Set(),
        signatureBy: new Map(),
        reuseBy: new Map(),
      };
      byId.set(id, acc);
    }
    for (const p of f.producers) {
      acc.producers.add(p);
      if (f.signature && normalizeText(f.signature)) acc.signatureBy.set(p, f.signature);
      if (f.reuse && normalizeText(f.reuse)) acc.reuseBy.set(p, f.reuse);
    }
    acc.iterations.add(f.iteration);
    acc.unit.relevance = Math.max(acc.unit.relevance, f.relevance);
    acc.unit.firstIteration = Math.min(acc.unit.firstIteration, f.iteration);
    if (f.verified === true) acc.unit.verified = true;
  }
  const units: DerivableUnit[] = [];
  const contradictions: LiteContradiction[] = [];
  for (const acc of byId.values()) {
    const producedBy = [...acc.producers];
    units.push({ ...acc.unit, producedBy, agreement: producedBy.length, iterations: [...acc.iterations].sort((a, b) => a - b) });
    if (producedBy.length < 2) continue;
    for (const [field, by] of [
      ["signature", acc.signatureBy],
      ["reuse", acc.reuseBy],
    ] as const) {
      const distinct = new Set([...by.values()].map(normalizeText));
      if (distinct.size > 1) {
        contradictions.push({ unit_id: acc.unit.unit_id, path: acc.unit.path, symbol: acc.unit.symbol, field, values: Object.fromEntries(by) });
      }
    }
  }
  return { units, contradictions };
}
