/**
 * From merged units to the registry's buckets (the reference's detectContradictions +
 * buildRegistry): relevance gate, kind buckets, contradictions, sort order, metrics.
 * Works on the rows of a UnitTable; the Unit views are made only when asked for.
 */
import { COLLATE_UNKNOWN, byteCollationApplies, compareBytes, compareBytesPlain, primaryKey } from "./collate";
import { isFiniteNumber, round3 } from "../text";
import type { Contradiction, RegistryMetrics } from "../types";
import { A_NEXT, A_PRODUCER, A_REUSE, A_SIGNATURE, ATTR_STRIDE, U_PATH, U_SYMBOL, UNIT_STRIDE, type Unit, UnitTable } from "./units";

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
  /** The units' table, and the buckets (in BUCKETS order) and lowConfidence as its rows. */
  table: UnitTable;
  bucketRows: Int32Array[];
  lowConfidenceRows: Int32Array;
  /** The first k units of bucket b (BUCKETS index) in registry order, without sorting the rest when not sorted yet. */
  top(b: number, k: number): Unit[];
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
  if (units.length === 0) return [];
  return contradictionsOf(
    units[0]!.table,
    Int32Array.from(units, (u) => u.index),
  );
}

/** Contradictions of the given rows, in row order (all rows of the table when null). */
function contradictionsOf(t: UnitTable, rows: Int32Array | null): Contradiction[] {
  const out: Contradiction[] = [];
  // Only units whose producers gave more than one text can contradict (UnitTable.differs);
  // for the whole table, those are listed already (in row order once sorted).
  const candidates = rows ?? Int32Array.from(t.marked).sort();
  for (let k = 0; k < candidates.length; k++) {
    const u = candidates[k]!;
    if (!t.differs(u) || t.agreementOf(u) < 2) continue;
    contradictionOf(t, u, A_SIGNATURE, "signature", out);
    contradictionOf(t, u, A_REUSE, "reuse", out);
  }
  return out;
}

function contradictionOf(t: UnitTable, u: number, f: number, field: "signature" | "reuse", out: Contradiction[]): void {
  // Cheap pre-check on the attribution texts; the object below can only have fewer values.
  const a = t.attrs;
  let firstOff = 0;
  let firstLen = 0;
  let differs = false;
  for (let e = t.attrHead(u); e >= 0; e = a[e * ATTR_STRIDE + A_NEXT]!) {
    const off = a[e * ATTR_STRIDE + f]!;
    const len = a[e * ATTR_STRIDE + f + 1]!;
    if (len === 0) continue;
    if (firstLen === 0) {
      firstOff = off;
      firstLen = len;
    } else if (!t.textEquals(firstOff, firstLen, off, len)) {
      differs = true;
      break;
    }
  }
  if (!differs) return;
  // Values are already normalised (normalizeText is idempotent).
  const producers: string[] = [];
  const values: string[] = [];
  for (let e = t.attrHead(u); e >= 0; e = a[e * ATTR_STRIDE + A_NEXT]!) {
    producers.push(t.producerNames[a[e * ATTR_STRIDE + A_PRODUCER]!]!);
    values.push(t.textOf(a[e * ATTR_STRIDE + f]!, a[e * ATTR_STRIDE + f + 1]!));
  }
  const map = producerMap(producers, values);
  if (new Set(Object.values(map).filter(Boolean)).size > 1) {
    const kept = Object.entries(map).filter(([, v]) => v);
    out.push({ unit_id: t.unitId(u), path: t.text(u, U_PATH), symbol: t.text(u, U_SYMBOL), field, values: Object.fromEntries(kept) });
  }
}

/** How texts compare: 0 localeCompare, 1 bytes (COLLATE_UNKNOWN: localeCompare), 2 bytes, all of them in 0x20..0x7E. */
type Collation = 0 | 1 | 2;

function collationFor(t: UnitTable): Collation {
  if (!byteCollationApplies()) return 0;
  // Arena bytes are 0x20..0x7F: without DEL every one has collation weights.
  return t.arena.subarray(0, t.arenaLength).indexOf(0x7f) < 0 ? 2 : 1;
}

/** localeCompare of two texts of the table. */
function compareTexts(t: UnitTable, aOff: number, aLen: number, bOff: number, bLen: number, how: Collation): number {
  if (how !== 0 && aOff >= 0 && bOff >= 0) {
    if (how === 2) return compareBytesPlain(t.arena, aOff, aLen, t.arena, bOff, bLen);
    const r = compareBytes(t.arena, aOff, aLen, t.arena, bOff, bLen);
    if (r !== COLLATE_UNKNOWN) return r;
  }
  return t.textOf(aOff, aLen).localeCompare(t.textOf(bOff, bLen));
}

/**
 * The sort's first two keys, by unit, in dense columns: a unit's own row spans 84 bytes and
 * the rows a sort compares are far apart, so reading them there missed the cache at nearly
 * every comparison. Texts (compared on ties only) are read from the rows.
 */
class SortKeys {
  readonly agreement: Int32Array;
  readonly relevance: Float64Array;
  /**
   * With plain ASCII texts (collation 2): each path's primaryKey past the prefix every path
   * shares, which settles most path comparisons without reading the texts; null otherwise.
   */
  readonly pathKey: Float64Array | null = null;
  constructor(
    readonly t: UnitTable,
    readonly how: Collation,
  ) {
    const n = t.count;
    this.agreement = new Int32Array(n);
    this.relevance = new Float64Array(n);
    for (let u = 0; u < n; u++) {
      this.agreement[u] = t.agreementOf(u);
      this.relevance[u] = t.relevanceOf(u);
    }
    if (how === 2 && n > 1) this.pathKey = pathKeys(t);
  }
}

/** The pathKey column (see SortKeys), or null when a path is not arena text. */
function pathKeys(t: UnitTable): Float64Array | null {
  const ints = t.ints;
  const a = t.arena;
  const off0 = ints[U_PATH]!;
  let shared = ints[U_PATH + 1]!;
  for (let u = 0; u < t.count && shared > 0; u++) {
    const off = ints[u * UNIT_STRIDE + U_PATH]!;
    if (off < 0) return null;
    const len = ints[u * UNIT_STRIDE + U_PATH + 1]!;
    if (len < shared) shared = len;
    let k = 0;
    while (k < shared && a[off + k] === a[off0 + k]) k++;
    shared = k;
  }
  const keys = new Float64Array(t.count);
  for (let u = 0; u < t.count; u++) {
    const off = ints[u * UNIT_STRIDE + U_PATH]!;
    if (off < 0) return null;
    keys[u] = primaryKey(a, off, ints[u * UNIT_STRIDE + U_PATH + 1]!, shared);
  }
  return keys;
}

/** agreement desc, relevance (rounded) desc, path, symbol (localeCompare): the reference's `||` chain. */
function compareRows(k: SortKeys, a: number, b: number): number {
  const d1 = k.agreement[b]! - k.agreement[a]!;
  if (d1) return d1;
  const d2 = k.relevance[b]! - k.relevance[a]!;
  if (d2) return d2;
  const keys = k.pathKey;
  if (keys !== null && keys[a] !== keys[b]) return keys[a]! < keys[b]! ? -1 : 1;
  const ints = k.t.ints;
  const ia = a * UNIT_STRIDE;
  const ib = b * UNIT_STRIDE;
  const d3 = compareTexts(k.t, ints[ia + U_PATH]!, ints[ia + U_PATH + 1]!, ints[ib + U_PATH]!, ints[ib + U_PATH + 1]!, k.how);
  if (d3) return d3;
  return compareTexts(k.t, ints[ia + U_SYMBOL]!, ints[ia + U_SYMBOL + 1]!, ints[ib + U_SYMBOL]!, ints[ib + U_SYMBOL + 1]!, k.how);
}

/** Stable merge sort of rows (the order Array.prototype.sort gives with the same comparator). */
function sortRows(k: SortKeys, rows: Int32Array): Int32Array {
  const n = rows.length;
  if (n < 2) return rows;
  let src: Int32Array = rows;
  let dst: Int32Array = new Int32Array(n);
  // Insertion-sorted runs of 8, then bottom-up merges.
  const RUN = 8;
  for (let lo = 0; lo < n; lo += RUN) {
    const hi = Math.min(lo + RUN, n);
    for (let i = lo + 1; i < hi; i++) {
      const x = src[i]!;
      let j = i - 1;
      while (j >= lo && compareRows(k, src[j]!, x) > 0) {
        src[j + 1] = src[j]!;
        j--;
      }
      src[j + 1] = x;
    }
  }
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let o = lo;
      while (i < mid && j < hi) dst[o++] = compareRows(k, src[i]!, src[j]!) > 0 ? src[j++]! : src[i++]!;
      while (i < mid) dst[o++] = src[i++]!;
      while (j < hi) dst[o++] = src[j++]!;
    }
    const swap = src;
    src = dst;
    dst = swap;
  }
  return src;
}

export function buildRegistry(units: Unit[], options: { relevanceGate?: unknown; agreementMin?: unknown }): RegistryBuckets {
  const table = units.length ? units[0]!.table : new UnitTable(16, 1024);
  return buildRegistryOf(
    table,
    Int32Array.from(units, (u) => u.index),
    options,
  );
}

/** The k smallest rows by compareRows, in order; ties keep row order (what a stable sort gives). */
function topRows(keys: SortKeys, rows: Int32Array, k: number): Int32Array {
  const best: number[] = [];
  for (let r = 0; r < rows.length; r++) {
    const x = rows[r]!;
    if (best.length === k && compareRows(keys, best[k - 1]!, x) <= 0) continue;
    let j = best.length;
    while (j > 0 && compareRows(keys, best[j - 1]!, x) > 0) j--;
    best.splice(j, 0, x);
    if (best.length > k) best.pop();
  }
  return Int32Array.from(best);
}

/**
 * buildRegistry over rows of a table (all of them when `rows` is null), in first-appearance
 * order. With `lazy`, the buckets are sorted only when first read (metrics, contradictions
 * and `top` do not need it).
 */
export function buildRegistryOf(table: UnitTable, rows: Int32Array | null, options: { relevanceGate?: unknown; agreementMin?: unknown }, { lazy = false }: { lazy?: boolean } = {}): RegistryBuckets {
  const relevanceGate = isFiniteNumber(options.relevanceGate) ? options.relevanceGate : DEFAULT_RELEVANCE_GATE;
  const agreementMin = isFiniteNumber(options.agreementMin) ? options.agreementMin : DEFAULT_AGREEMENT_MIN;
  const contradictions = contradictionsOf(table, rows);
  let all = rows;
  if (all === null) {
    all = new Int32Array(table.count);
    for (let u = 0; u < all.length; u++) all[u] = u;
  }
  const total = all.length;
  // Bucket of each row (5: lowConfidence), then rows by bucket in order.
  const bucketOf = new Uint8Array(total);
  const sizes = new Int32Array(6);
  let eligible = 0;
  let gated = 0;
  for (let k = 0; k < total; k++) {
    const u = all[k]!;
    const max = table.maxRelevanceOf(u);
    table.setRelevance(u, round3(max));
    let b: number;
    if (max < relevanceGate) {
      b = 5;
    } else {
      gated++;
      if (table.agreementOf(u) >= agreementMin) eligible++;
      const kind = table.kindIndexOf(u);
      b = kind >= 0 && kind < BUCKETS.length ? kind : 0;
    }
    bucketOf[k] = b;
    sizes[b] = sizes[b]! + 1;
  }
  const lists = Array.from(sizes, (n) => new Int32Array(n));
  const fill = new Int32Array(6);
  for (let k = 0; k < total; k++) {
    const b = bucketOf[k]!;
    lists[b]![fill[b]!++] = all[k]!;
  }
  let keys: SortKeys | undefined;
  const sortKeys = () => (keys ??= new SortKeys(table, total > 1 ? collationFor(table) : 0));
  let sorted: Int32Array[] | null = null;
  const sortAll = () => (sorted ??= lists.map((l) => sortRows(sortKeys(), l)));
  if (!lazy) sortAll();
  const metrics: RegistryMetrics = {
    findings: total,
    gatedFindings: gated,
    lowConfidenceFindings: sizes[5]!,
    agreementEligible: eligible,
    contradictions: contradictions.length,
    agreementRate: gated > 0 ? round3(eligible / gated) : 0,
    relevanceFloor: total > 0 ? round3(gated / total) : 0,
    reuseCandidates: sizes[0]!,
    integrationPoints: sizes[1]!,
    conventions: sizes[2]!,
    dependencies: sizes[3]!,
    gaps: sizes[4]!,
  };
  // Unit views only for the buckets someone reads (the dashboard reads the top of one).
  const toUnits = (r: Int32Array) => Array.from(r, (u) => table.view(u));
  const cache: (Unit[] | undefined)[] = [];
  const buckets = {} as Record<BucketName, Unit[]>;
  BUCKETS.forEach((name, i) => Object.defineProperty(buckets, name, { enumerable: true, get: () => (cache[i] ??= toUnits(sortAll()[i]!)) }));
  let lowViews: Unit[] | null = null;
  return {
    buckets,
    get lowConfidence() {
      return (lowViews ??= toUnits(sortAll()[5]!));
    },
    contradictions,
    metrics,
    relevanceGate,
    agreementMin,
    table,
    get bucketRows() {
      return sortAll().slice(0, 5);
    },
    get lowConfidenceRows() {
      return sortAll()[5]!;
    },
    top(b: number, k: number): Unit[] {
      const rows = sorted ? sorted[b]!.subarray(0, k) : topRows(sortKeys(), lists[b]!, k);
      return toUnits(rows);
    },
  };
}
