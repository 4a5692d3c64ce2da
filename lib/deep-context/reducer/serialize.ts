/**
 * findings-registry.json, byte for byte `JSON.stringify(registry, null, 2) + "\n"` as the
 * reference writes it, produced as bytes straight from the unit table into one reused
 * buffer (the 25,000-unit registry is ~20 MB: no object tree, no strings per unit; arena
 * texts are JSON-safe ASCII, so their bytes are their JSON form). `registryObject` builds
 * the same document as plain objects for in-process consumers; tests check the two agree.
 */
import { type RegistryBuckets, BUCKETS } from "./registry";
import type { FindingsRegistry, RegistryFinding } from "../types";
import { A_NEXT, A_PRODUCER, ATTR_STRIDE, KIND_NAMES, U_EVIDENCE, U_KIND, U_NOTES, U_PATH, U_REUSE, U_SIGNATURE, U_SYMBOL, UNIT_STRIDE, type Unit, type UnitTable } from "./units";

/** Everything of the registry besides the buckets (TAIL_KEYS gives the reference's key order). */
export type RegistryTail = Pick<
  FindingsRegistry,
  | "sessionId"
  | "lineageMode"
  | "generation"
  | "status"
  | "relevanceGate"
  | "agreementMin"
  | "executorPool"
  | "iterationsCompleted"
  | "seatsByIteration"
  | "graphDecision"
  | "corruptionWarnings"
  | "seatValidationWarnings"
  | "stateLogRepair"
>;

const TAIL_KEYS: readonly (keyof RegistryTail)[] = [
  "sessionId",
  "lineageMode",
  "generation",
  "status",
  "relevanceGate",
  "agreementMin",
  "executorPool",
  "iterationsCompleted",
  "seatsByIteration",
  "graphDecision",
  "corruptionWarnings",
  "seatValidationWarnings",
  "stateLogRepair",
];

const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A JSON string literal (JSON.stringify's only for strings that need escaping). */
function q(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

function num(n: number): string {
  return Number.isFinite(n) ? String(n) : "null";
}

/** JSON.stringify(value, null, 2) nested at `indent`. */
function nested(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
}

/** nested(values, "      ") for an object of strings (a contradiction's values), without the regex pass. */
function stringMap(values: Record<string, string>): string {
  let out = "";
  for (const key in values) {
    if (!Object.prototype.hasOwnProperty.call(values, key)) continue;
    const v = values[key];
    if (typeof v !== "string") return nested(values, "      ");
    out += `${out ? "," : ""}\n        ${q(key)}: ${q(v)}`;
  }
  return out ? `{${out}\n      }` : "{}";
}

/**
 * Collects output bytes in one reused buffer and hands it to `sink` whenever it fills (and
 * on flush). The sink must use the bytes before returning: the buffer is overwritten next.
 */
export class ByteWriter {
  buf: Buffer;
  pos = 0;
  constructor(
    private readonly sink: (bytes: Buffer, length: number) => void,
    size = 1 << 20,
  ) {
    this.buf = Buffer.allocUnsafeSlow(size);
  }
  /** Room for n more bytes at `pos`. */
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    this.flush();
    if (n > this.buf.length) this.buf = Buffer.allocUnsafeSlow(n);
  }
  flush(): void {
    if (this.pos === 0) return;
    this.sink(this.buf, this.pos);
    this.pos = 0;
  }
  bytes(src: Uint8Array): void {
    this.ensure(src.length);
    this.buf.set(src, this.pos);
    this.pos += src.length;
  }
  /** Text of any kind, as UTF-8. */
  text(s: string): void {
    this.ensure(s.length * 3);
    this.pos += this.buf.write(s, this.pos, "utf8");
  }
}

const ascii = (s: string) => Buffer.from(s, "latin1");
const P_UNIT_ID = ascii('    {\n      "unit_id": ');
const P_PATH = ascii(',\n      "path": ');
const P_SYMBOL = ascii(',\n      "symbol": ');
const P_KIND = ascii(',\n      "kind": ');
const P_SIGNATURE = ascii(',\n      "signature": ');
const P_REUSE = ascii(',\n      "reuse": ');
const P_EVIDENCE = ascii(',\n      "evidence": ');
const P_NOTES = ascii(',\n      "notes": ');
const P_PRODUCED_BY = ascii(',\n      "producedBy": [\n');
const P_PRODUCED_BY_EMPTY = ascii(',\n      "producedBy": []');
const P_PRODUCER = ascii("        ");
const P_PRODUCER_NEXT = ascii(",\n        ");
const P_PRODUCED_BY_END = ascii("\n      ]");
const P_AGREEMENT = ascii(',\n      "agreement": ');
const P_ELIGIBLE_TRUE = ascii(',\n      "agreementEligible": true');
const P_ELIGIBLE_FALSE = ascii(',\n      "agreementEligible": false');
const P_RELEVANCE = ascii(',\n      "relevance": ');
const P_FIRST_ITERATION = ascii(',\n      "firstIteration": ');
const P_UNIT_END = ascii("\n    }");
const KIND_JSON = KIND_NAMES.map((k) => ascii(`"${k}"`));

/** Writes units of a table as registry records; producer labels are quoted and ranked once. */
class UnitWriter {
  private readonly labels: Buffer[];
  /** Producer id → rank in the default sort of labels (UTF-16 code units). */
  private readonly rank: Int32Array;
  private readonly ids: number[] = [];
  private readonly numbers = new Map<number, Buffer>();

  constructor(
    private readonly w: ByteWriter,
    private readonly t: UnitTable,
    private readonly agreementMin: number,
  ) {
    const names = t.producerNames;
    this.labels = names.map((n) => Buffer.from(q(n), "utf8"));
    const order = names.map((_, i) => i).sort((a, b) => (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0));
    this.rank = new Int32Array(names.length);
    order.forEach((id, r) => (this.rank[id] = r));
  }

  private number(n: number): Buffer {
    let b = this.numbers.get(n);
    if (b === undefined) {
      b = ascii(num(n));
      if (this.numbers.size < 4096) this.numbers.set(n, b);
    }
    return b;
  }

  /** A text of the table as a JSON string. */
  private text(off: number, len: number): void {
    const w = this.w;
    if (off < 0) {
      w.text(q(this.t.textOf(off, len)));
      return;
    }
    w.ensure(len + 2);
    const out = w.buf;
    const a = this.t.arena;
    let p = w.pos;
    out[p++] = 0x22;
    for (let k = 0; k < len; k++) out[p + k] = a[off + k]!;
    p += len;
    out[p++] = 0x22;
    w.pos = p;
  }

  /** Sorted producers of u (the reference: producedBy.slice().sort()) into `ids`, by rank of their labels; returns the labels' bytes. */
  private sortedProducers(u: number): number {
    const t = this.t;
    const ids = this.ids;
    ids.length = 0;
    const a = t.attrs;
    let bytes = 0;
    for (let e = t.attrHead(u); e >= 0; e = a[e * ATTR_STRIDE + A_NEXT]!) {
      const id = a[e * ATTR_STRIDE + A_PRODUCER]!;
      const r = this.rank[id]!;
      let j = ids.length;
      while (j > 0 && this.rank[ids[j - 1]!]! > r) {
        ids[j] = ids[j - 1]!;
        j--;
      }
      ids[j] = id;
      bytes += this.labels[id]!.length;
    }
    return bytes;
  }

  /**
   * The bytes from the end of `notes` to the start of `relevance`'s value for a set of
   * producers (a bit mask of ids < 30): producedBy, agreement, agreementEligible. Units share
   * a handful of producer sets, so each is made once.
   */
  private producerBlock(mask: number): Buffer {
    let b = this.blocks.get(mask);
    if (b === undefined) {
      const ids: number[] = [];
      for (let id = 0; id < 30; id++) if (mask & (1 << id)) ids.push(id);
      ids.sort((x, y) => this.rank[x]! - this.rank[y]!);
      const parts: Buffer[] = [ascii('",\n      "producedBy": [\n')];
      ids.forEach((id, k) => parts.push(k === 0 ? P_PRODUCER : P_PRODUCER_NEXT, this.labels[id]!));
      parts.push(P_PRODUCED_BY_END, P_AGREEMENT, this.number(ids.length), ids.length >= this.agreementMin ? P_ELIGIBLE_TRUE : P_ELIGIBLE_FALSE, P_RELEVANCE);
      b = Buffer.concat(parts);
      this.blocks.set(mask, b);
    }
    return b;
  }
  private readonly blocks = new Map<number, Buffer>();

  /** Writes unit u's record; `droppedBelowGate` (lowConfidence) is the record's end with that member. */
  write(u: number, droppedBelowGate: Buffer | null): void {
    const t = this.t;
    const ints = t.ints;
    const i = u * UNIT_STRIDE;
    const ki = ints[i + U_KIND]!;
    // The producer set as a bit mask (when every id is small and there is at least one).
    const a = t.attrs;
    let mask = 0;
    const plain = t.producerNames.length <= 30;
    for (let e = t.attrHead(u); e >= 0; e = a[e * ATTR_STRIDE + A_NEXT]!) mask |= 1 << a[e * ATTR_STRIDE + A_PRODUCER]!;
    if (
      !plain ||
      mask === 0 ||
      ints[i + U_PATH]! < 0 ||
      ints[i + U_SYMBOL]! < 0 ||
      ints[i + U_SIGNATURE]! < 0 ||
      ints[i + U_REUSE]! < 0 ||
      ints[i + U_EVIDENCE]! < 0 ||
      ints[i + U_NOTES]! < 0 ||
      KIND_NAMES[ki] !== t.kindOf(u) ||
      !t.hasDerivedId(u)
    ) {
      this.writeChecked(u, droppedBelowGate);
      return;
    }
    const block = this.producerBlock(mask);
    const relevance = this.number(t.relevanceOf(u));
    const first = this.number(t.firstIterationOf(u));
    const tailPiece = droppedBelowGate ?? P_UNIT_END;
    const kindPiece = KIND_PIECES[ki]!;
    const pathLen = ints[i + U_PATH + 1]!;
    const symbolLen = ints[i + U_SYMBOL + 1]!;
    const sigLen = ints[i + U_SIGNATURE + 1]!;
    const reuseLen = ints[i + U_REUSE + 1]!;
    const evidLen = ints[i + U_EVIDENCE + 1]!;
    const notesLen = ints[i + U_NOTES + 1]!;
    const bound =
      P_HEAD.length +
      64 +
      P_AFTER_ID.length +
      pathLen +
      P_AFTER_PATH.length +
      symbolLen +
      kindPiece.length +
      sigLen +
      P_AFTER_SIGNATURE.length +
      reuseLen +
      P_AFTER_REUSE.length +
      evidLen +
      P_AFTER_EVIDENCE.length +
      notesLen +
      block.length +
      relevance.length +
      P_FIRST_ITERATION.length +
      first.length +
      tailPiece.length;
    const w = this.w;
    w.ensure(bound);
    const out = w.buf;
    const arena = t.arena;
    let p = put(out, w.pos, P_HEAD);
    t.writeDerivedId(u, out, p);
    p = put(out, p + 64, P_AFTER_ID);
    p = copy(out, p, arena, ints[i + U_PATH]!, pathLen);
    p = put(out, p, P_AFTER_PATH);
    p = copy(out, p, arena, ints[i + U_SYMBOL]!, symbolLen);
    p = put(out, p, kindPiece);
    p = copy(out, p, arena, ints[i + U_SIGNATURE]!, sigLen);
    p = put(out, p, P_AFTER_SIGNATURE);
    p = copy(out, p, arena, ints[i + U_REUSE]!, reuseLen);
    p = put(out, p, P_AFTER_REUSE);
    p = copy(out, p, arena, ints[i + U_EVIDENCE]!, evidLen);
    p = put(out, p, P_AFTER_EVIDENCE);
    p = copy(out, p, arena, ints[i + U_NOTES]!, notesLen);
    p = put(out, p, block);
    p = put(out, p, relevance);
    p = put(out, p, P_FIRST_ITERATION);
    p = put(out, p, first);
    w.pos = put(out, p, tailPiece);
  }

  /** Any unit, with a bounds check per piece (texts outside the arena, explicit ids, odd kinds). */
  private writeChecked(u: number, droppedBelowGate: Buffer | null): void {
    this.sortedProducers(u);
    const w = this.w;
    const t = this.t;
    const ints = t.ints;
    const i = u * UNIT_STRIDE;
    w.bytes(P_UNIT_ID);
    w.ensure(66);
    if (t.writeDerivedId(u, w.buf, w.pos + 1)) {
      w.buf[w.pos] = 0x22;
      w.buf[w.pos + 65] = 0x22;
      w.pos += 66;
    } else {
      w.text(q(t.unitId(u)));
    }
    w.bytes(P_PATH);
    this.text(ints[i + U_PATH]!, ints[i + U_PATH + 1]!);
    w.bytes(P_SYMBOL);
    this.text(ints[i + U_SYMBOL]!, ints[i + U_SYMBOL + 1]!);
    w.bytes(P_KIND);
    const kind = t.kindOf(u);
    const ki = ints[i + U_KIND]!;
    if (KIND_NAMES[ki] === kind) w.bytes(KIND_JSON[ki]!);
    else w.text(q(kind));
    w.bytes(P_SIGNATURE);
    this.text(ints[i + U_SIGNATURE]!, ints[i + U_SIGNATURE + 1]!);
    w.bytes(P_REUSE);
    this.text(ints[i + U_REUSE]!, ints[i + U_REUSE + 1]!);
    w.bytes(P_EVIDENCE);
    this.text(ints[i + U_EVIDENCE]!, ints[i + U_EVIDENCE + 1]!);
    w.bytes(P_NOTES);
    this.text(ints[i + U_NOTES]!, ints[i + U_NOTES + 1]!);
    const ids = this.ids;
    if (ids.length === 0) {
      w.bytes(P_PRODUCED_BY_EMPTY);
    } else {
      w.bytes(P_PRODUCED_BY);
      for (let k = 0; k < ids.length; k++) {
        w.bytes(k === 0 ? P_PRODUCER : P_PRODUCER_NEXT);
        w.bytes(this.labels[ids[k]!]!);
      }
      w.bytes(P_PRODUCED_BY_END);
    }
    w.bytes(P_AGREEMENT);
    w.bytes(this.number(ids.length));
    w.bytes(ids.length >= this.agreementMin ? P_ELIGIBLE_TRUE : P_ELIGIBLE_FALSE);
    w.bytes(P_RELEVANCE);
    w.bytes(this.number(t.relevanceOf(u)));
    w.bytes(P_FIRST_ITERATION);
    w.bytes(this.number(t.firstIterationOf(u)));
    w.bytes(droppedBelowGate ?? P_UNIT_END);
  }
}

/** Copies src to out at p; returns the index after it. */
function put(out: Uint8Array, p: number, src: Uint8Array): number {
  for (let k = 0; k < src.length; k++) out[p + k] = src[k]!;
  return p + src.length;
}

/** Copies src[o, o + len) to out at p; returns the index after it. */
function copy(out: Uint8Array, p: number, src: Uint8Array, o: number, len: number): number {
  for (let k = 0; k < len; k++) out[p + k] = src[o + k]!;
  return p + len;
}

// The fast path's pieces: each runs from one value to the next, quotes included.
const P_HEAD = ascii('    {\n      "unit_id": "');
const P_AFTER_ID = ascii('",\n      "path": "');
const P_AFTER_PATH = ascii('",\n      "symbol": "');
const KIND_PIECES = KIND_NAMES.map((k) => ascii(`",\n      "kind": "${k}",\n      "signature": "`));
const P_AFTER_SIGNATURE = ascii('",\n      "reuse": "');
const P_AFTER_REUSE = ascii('",\n      "evidence": "');
const P_AFTER_EVIDENCE = ascii('",\n      "notes": "');

function writeRows(w: ByteWriter, key: string, rows: Int32Array, units: UnitWriter, droppedBelowGate: Buffer | null): void {
  if (rows.length === 0) {
    w.text(`  ${q(key)}: [],\n`);
    return;
  }
  w.text(`  ${q(key)}: [\n`);
  for (let k = 0; k < rows.length; k++) {
    if (k) w.bytes(COMMA_NEWLINE);
    units.write(rows[k]!, droppedBelowGate);
  }
  w.text("\n  ],\n");
}
const COMMA_NEWLINE = ascii(",\n");

function writeArray<T>(w: ByteWriter, key: string, items: readonly T[], each: (item: T) => void): void {
  if (items.length === 0) {
    w.text(`  ${q(key)}: [],\n`);
    return;
  }
  w.text(`  ${q(key)}: [\n`);
  for (let i = 0; i < items.length; i++) {
    if (i) w.bytes(COMMA_NEWLINE);
    each(items[i]!);
  }
  w.text("\n  ],\n");
}

/** findings-registry.json, `JSON.stringify(registry, null, 2) + "\n"`, into `w` (not flushed). */
export function writeRegistryJson(w: ByteWriter, reg: RegistryBuckets, tail: RegistryTail): void {
  const units = new UnitWriter(w, reg.table, reg.agreementMin);
  w.text("{\n");
  BUCKETS.forEach((name, b) => writeRows(w, name, reg.bucketRows[b]!, units, null));
  writeRows(w, "lowConfidence", reg.lowConfidenceRows, units, ascii(`,\n      "droppedBelowGate": ${num(reg.relevanceGate)}\n    }`));
  writeArray(w, "contradictions", reg.contradictions, (c) =>
    w.text(`    {\n      "unit_id": ${q(c.unit_id)},\n      "path": ${q(c.path)},\n      "symbol": ${q(c.symbol)},\n      "field": ${q(c.field)},\n      "values": ${stringMap(c.values)}\n    }`),
  );
  w.text(`  "metrics": ${nested(reg.metrics, "  ")},\n`);
  TAIL_KEYS.forEach((key, i) => w.text(`  ${q(key)}: ${nested(tail[key], "  ")}${i === TAIL_KEYS.length - 1 ? "\n" : ",\n"}`));
  w.text("}\n");
}

function unitRecord(u: Unit, agreementMin: number): RegistryFinding {
  return {
    unit_id: u.unitId,
    path: u.path,
    symbol: u.symbol,
    kind: u.kind,
    signature: u.signature,
    reuse: u.reuse,
    evidence: u.evidence,
    notes: u.notes,
    producedBy: u.producers.sort(),
    agreement: u.agreement,
    agreementEligible: u.agreement >= agreementMin,
    relevance: u.relevance,
    firstIteration: u.firstIteration,
  };
}

/** The registry as plain objects (what JSON.parse of findings-registry.json gives). */
export function registryObject(reg: RegistryBuckets, tail: RegistryTail): FindingsRegistry {
  const b = (name: (typeof BUCKETS)[number]) => reg.buckets[name].map((u) => unitRecord(u, reg.agreementMin));
  return {
    reuseCandidates: b("reuseCandidates"),
    integrationPoints: b("integrationPoints"),
    conventions: b("conventions"),
    dependencies: b("dependencies"),
    gaps: b("gaps"),
    lowConfidence: reg.lowConfidence.map((u) => ({ ...unitRecord(u, reg.agreementMin), droppedBelowGate: reg.relevanceGate })),
    contradictions: reg.contradictions,
    metrics: reg.metrics,
    ...(Object.fromEntries(TAIL_KEYS.map((k) => [k, tail[k]])) as unknown as RegistryTail),
  };
}
