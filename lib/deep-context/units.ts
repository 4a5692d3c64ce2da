/**
 * Dedup of seat findings into units (the reference's dedupByUnit): one unit per unit_id,
 * in order of first appearance, with per-producer attribution.
 *
 * A derived unit_id is sha256 of the normalised `path:symbol:kind` (the "composite"). Equal
 * composites give equal ids, so derived findings are matched by composite text through a
 * 32-bit FNV-1a table — the byte scanner can look a finding up without building a string —
 * and each unit's sha256 is computed once, when first asked for. Explicit `unit_id`s share
 * the id space: from the first one on, derived ids are hashed eagerly so that an explicit
 * id equal to a derived one lands on the same unit, as in the reference.
 */
import { sha256Hex } from "./text";

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over a string's UTF-16 units; equals `fnvBytes` of the same text when it is ASCII. */
export function fnvString(s: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

export class Unit {
  /** [producer, signature, reuse] triples: distinct producers in order of first contribution, latest values. */
  readonly attribution: string[] = [];
  /** First non-empty value from any producer. */
  signature = "";
  reuse = "";
  evidence = "";
  notes = "";
  maxRelevance = -Infinity;
  firstIteration: number;
  /** Set by buildRegistry: relevance rounded to 3 decimals (the sort key). */
  relevance = 0;
  private id: string | null;

  constructor(
    /** Explicit unit_id, or null for a derived one (computed from `composite` on demand). */
    explicitId: string | null,
    /** `path:symbol:kind` for a derived unit, else null. */
    readonly composite: string | null,
    readonly path: string,
    readonly symbol: string,
    readonly kind: string,
    readonly kindIndex: number,
    iteration: number,
  ) {
    this.id = explicitId;
    this.firstIteration = Number.isFinite(iteration) ? iteration : 0;
  }

  get unitId(): string {
    return (this.id ??= sha256Hex(this.composite!));
  }

  get agreement(): number {
    return this.attribution.length / 3;
  }

  /** Producers in order of first contribution. */
  get producers(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.attribution.length; i += 3) out.push(this.attribution[i]!);
    return out;
  }

  /** Latest normalised signature (field 1) or reuse verb (field 2) per producer, in producer order. */
  valuesOf(field: 1 | 2): string[] {
    const out: string[] = [];
    for (let i = field; i < this.attribution.length; i += 3) out.push(this.attribution[i]!);
    return out;
  }

  /** One finding of this unit: attribution (last write per producer wins), max relevance, earliest iteration. */
  observe(producer: string, relevance: number, iteration: number, signature: string, reuse: string): void {
    const a = this.attribution;
    let k = 0;
    while (k < a.length && a[k] !== producer) k += 3;
    if (k === a.length) a.push(producer, signature, reuse);
    else {
      a[k + 1] = signature;
      a[k + 2] = reuse;
    }
    this.maxRelevance = Math.max(this.maxRelevance, relevance);
    if (Number.isFinite(iteration)) this.firstIteration = Math.min(this.firstIteration, iteration);
    if (!this.signature && signature) this.signature = signature;
    if (!this.reuse && reuse) this.reuse = reuse;
  }
}

export class UnitTable {
  readonly units: Unit[] = [];
  /** Chained hash table of composites: first entry per FNV hash, then `next` links. */
  private readonly head = new Map<number, number>();
  private readonly entryComposite: string[] = [];
  private readonly entryUnit: Unit[] = [];
  private readonly entryNext: number[] = [];
  /** Units by id; only kept once an explicit id has been seen. */
  private byId: Map<string, Unit> | null = null;

  /** First entry index for a composite hash (-1 when none); follow with `nextEntry`. */
  firstEntry(hash: number): number {
    return this.head.get(hash) ?? -1;
  }
  nextEntry(entry: number): number {
    return this.entryNext[entry]!;
  }
  entryText(entry: number): string {
    return this.entryComposite[entry]!;
  }
  entryUnitOf(entry: number): Unit {
    return this.entryUnit[entry]!;
  }

  /** The unit of a composite, by text. */
  derived(composite: string, hash = fnvString(composite)): Unit | undefined {
    for (let e = this.firstEntry(hash); e >= 0; e = this.entryNext[e]!) if (this.entryComposite[e] === composite) return this.entryUnit[e];
    return undefined;
  }

  /** Registers a composite not in the table yet; its unit is new unless an explicit id equals its hash. */
  createDerived(composite: string, hash: number, path: string, symbol: string, kind: string, kindIndex: number, iteration: number): Unit {
    let unit: Unit | undefined;
    if (this.byId) {
      const id = sha256Hex(composite);
      unit = this.byId.get(id);
      if (!unit) {
        unit = new Unit(id, composite, path, symbol, kind, kindIndex, iteration);
        this.byId.set(id, unit);
        this.units.push(unit);
      }
    } else {
      unit = new Unit(null, composite, path, symbol, kind, kindIndex, iteration);
      this.units.push(unit);
    }
    const entry = this.entryComposite.length;
    this.entryComposite.push(composite);
    this.entryUnit.push(unit);
    this.entryNext.push(this.head.get(hash) ?? -1);
    this.head.set(hash, entry);
    return unit;
  }

  /** The unit of an explicit unit_id, creating it if new. */
  explicit(id: string, path: string, symbol: string, kind: string, kindIndex: number, iteration: number): Unit {
    if (!this.byId) {
      this.byId = new Map();
      for (const u of this.units) this.byId.set(u.unitId, u);
    }
    let unit = this.byId.get(id);
    if (!unit) {
      unit = new Unit(id, null, path, symbol, kind, kindIndex, iteration);
      this.byId.set(id, unit);
      this.units.push(unit);
    }
    return unit;
  }
}
