/**
 * findings-registry.json, byte for byte `JSON.stringify(registry, null, 2) + "\n"` as the
 * reference writes it, produced as bytes straight from the unit table into one reused
 * buffer (the 25,000-unit registry is ~20 MB: no object tree, no strings per unit; arena
 * texts are JSON-safe ASCII, so their bytes are their JSON form). `registryObject` builds
 * the same document as plain objects for in-process consumers; tests check the two agree.
 */
import { type RegistryBuckets, BUCKETS } from "./registry";
import type { FindingsRegistry, RegistryFinding } from "../types";
import { A_NEXT, A_PRODUCER, ATTR_STRIDE, KIND_NAMES, U_EVIDENCE, U_KIND, U_MASK, U_NOTES, U_PATH, U_REUSE, U_SIGNATURE, U_SYMBOL, UNIT_STRIDE, type Unit, type UnitTable } from "./units";

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
    buf: Buffer | number = 1 << 20,
  ) {
    this.buf = typeof buf === "number" ? Buffer.allocUnsafeSlow(buf) : buf;
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

// The fast path's pieces: each runs from one value to the next, quotes included.
const P_HEAD = ascii('    {\n      "unit_id": "');
const P_AFTER_ID = ascii('",\n      "path": "');
const P_AFTER_PATH = ascii('",\n      "symbol": "');
const KIND_PIECES = KIND_NAMES.map((k) => ascii(`",\n      "kind": "${k}",\n      "signature": "`));
const P_AFTER_SIGNATURE = ascii('",\n      "reuse": "');
const P_AFTER_REUSE = ascii('",\n      "evidence": "');
const P_AFTER_EVIDENCE = ascii('",\n      "notes": "');

/** Room for the fast path's pieces, producer blocks and numbers in the arena (more are written the slow way). */
const PIECE_ROOM = 1 << 16;
/** The output buffer, in the arena too (a quarter MB: each page of it counts in the process's memory, a flush costs a system call). */
const WRITER_ROOM = 1 << 18;

/**
 * Writes units of a table as registry records.
 *
 * The fast path (every text in the arena, a derived id, at most 31 producers) copies with
 * `copyWithin` inside the arena's memory: the output buffer and every constant piece (the
 * members' names, each producer set's `producedBy` block, each number) are placed in the
 * arena after its texts (UnitTable.scratch), so a record is a few native copies and its id
 * is hashed straight into place. Anything else goes through `writeChecked`, piece by piece.
 */
class UnitWriter {
  private readonly labels: Buffer[];
  /** Producer id → rank in the default sort of labels (UTF-16 code units). */
  private readonly rank: Int32Array;
  private readonly ids: number[] = [];
  private readonly numbers = new Map<number, Buffer>();

  /** The writer's buffer lies in the arena from this arena offset (-1: it does not, no fast path). */
  private readonly base: number;
  /** Pieces placed in the arena: start and length of each, by piece number. */
  private readonly pieceOff: number[] = [];
  private readonly pieceLen: number[] = [];
  private pieceEnd: number;
  private readonly pieceLimit: number;
  private readonly headPiece: number;
  private readonly afterIdPiece: number;
  private readonly afterPathPiece: number;
  private readonly kindPieces: number[];
  private readonly afterSignaturePiece: number;
  private readonly afterReusePiece: number;
  private readonly afterEvidencePiece: number;
  private readonly firstIterationPiece: number;
  private readonly unitEndPiece: number;
  /** Piece of each producer set's block (by mask), of each relevance in thousandths 0..1000, of each small integer. */
  private readonly blockPieces = new Map<number, number>();
  private readonly thousandthPieces = new Int32Array(1001).fill(-1);
  private readonly integerPieces = new Int32Array(1024).fill(-1);
  /** Whether every unit may take the fast path once its producers fit the mask (no side-list text, kind override or explicit id). */
  private readonly plainTable: boolean;

  constructor(
    private readonly w: ByteWriter,
    private readonly t: UnitTable,
    private readonly agreementMin: number,
    pieces: { off: number; length: number } | null,
  ) {
    const names = t.producerNames;
    this.labels = names.map((n) => Buffer.from(q(n), "utf8"));
    const order = names.map((_, i) => i).sort((a, b) => (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0));
    this.rank = new Int32Array(names.length);
    order.forEach((id, r) => (this.rank[id] = r));
    this.base = pieces !== null && w.buf.buffer === t.arena.buffer ? w.buf.byteOffset - t.arena.byteOffset : -1;
    this.pieceEnd = pieces?.off ?? 0;
    this.pieceLimit = pieces ? pieces.off + pieces.length : 0;
    this.headPiece = this.piece(P_HEAD);
    this.afterIdPiece = this.piece(P_AFTER_ID);
    this.afterPathPiece = this.piece(P_AFTER_PATH);
    this.kindPieces = KIND_PIECES.map((k) => this.piece(k));
    this.afterSignaturePiece = this.piece(P_AFTER_SIGNATURE);
    this.afterReusePiece = this.piece(P_AFTER_REUSE);
    this.afterEvidencePiece = this.piece(P_AFTER_EVIDENCE);
    this.firstIterationPiece = this.piece(P_FIRST_ITERATION);
    this.unitEndPiece = this.piece(P_UNIT_END);
    this.plainTable = names.length <= 31 && t.strings.length === 0 && !t.hasExplicitIds && !t.hasKindOverrides;
  }

  /** Places bytes in the arena's piece room; returns the piece number, or -1 when there is no room (or no fast path). */
  private piece(bytes: Uint8Array): number {
    if (this.base < 0 || this.pieceEnd + bytes.length > this.pieceLimit) return -1;
    this.t.arena.set(bytes, this.pieceEnd);
    this.pieceOff.push(this.pieceEnd);
    this.pieceLen.push(bytes.length);
    this.pieceEnd += bytes.length;
    return this.pieceOff.length - 1;
  }

  private number(n: number): Buffer {
    let b = this.numbers.get(n);
    if (b === undefined) {
      b = ascii(num(n));
      if (this.numbers.size < 4096) this.numbers.set(n, b);
    }
    return b;
  }

  /** The piece of a number's JSON text (-1 when it has none). Relevances are thousandths, iterations small integers. */
  private numberPiece(n: number): number {
    let cache: Int32Array;
    let k: number;
    if (n >= 0 && n <= 1 && Math.round(n * 1000) / 1000 === n) {
      cache = this.thousandthPieces;
      k = Math.round(n * 1000);
    } else if (Number.isInteger(n) && n > 1 && n < 1024) {
      cache = this.integerPieces;
      k = n;
    } else {
      return -1;
    }
    let p = cache[k]!;
    if (p < 0) {
      p = this.piece(ascii(num(n)));
      cache[k] = p;
    }
    return p;
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

  /** Sorted producers of u (the reference: producedBy.slice().sort()) into `ids`, by rank of their labels. */
  private sortedProducers(u: number): void {
    const t = this.t;
    const ids = this.ids;
    ids.length = 0;
    const a = t.attrs;
    for (let e = t.attrHead(u); e >= 0; e = a[e * ATTR_STRIDE + A_NEXT]!) {
      const id = a[e * ATTR_STRIDE + A_PRODUCER]!;
      const r = this.rank[id]!;
      let j = ids.length;
      while (j > 0 && this.rank[ids[j - 1]!]! > r) {
        ids[j] = ids[j - 1]!;
        j--;
      }
      ids[j] = id;
    }
  }

  /**
   * The piece from the end of `notes` to the start of `relevance`'s value for a set of
   * producers (a bit mask of ids ≤ 30): producedBy, agreement, agreementEligible. Units share
   * a handful of producer sets, so each is made once. -1 when there is no room.
   */
  private blockPiece(mask: number): number {
    let p = this.blockPieces.get(mask);
    if (p === undefined) {
      const ids: number[] = [];
      for (let id = 0; id <= 30; id++) if (mask & (1 << id)) ids.push(id);
      ids.sort((x, y) => this.rank[x]! - this.rank[y]!);
      const parts: Buffer[] = [ascii('",\n      "producedBy": [\n')];
      ids.forEach((id, k) => parts.push(k === 0 ? P_PRODUCER : P_PRODUCER_NEXT, this.labels[id]!));
      parts.push(P_PRODUCED_BY_END, P_AGREEMENT, this.number(ids.length), ids.length >= this.agreementMin ? P_ELIGIBLE_TRUE : P_ELIGIBLE_FALSE, P_RELEVANCE);
      p = this.piece(Buffer.concat(parts));
      this.blockPieces.set(mask, p);
    }
    return p;
  }

  /** The piece that ends a lowConfidence record: `droppedBelowGate` and the closing brace. */
  droppedPiece(droppedBelowGate: Buffer): number {
    return this.piece(droppedBelowGate);
  }

  /**
   * Writes unit u's record; `end` is the piece that closes it (-1: the plain closing brace),
   * `endBytes` the same bytes for the slow path.
   */
  write(u: number, end: number, endBytes: Buffer | null): void {
    const t = this.t;
    const ints = t.ints;
    const i = u * UNIT_STRIDE;
    const mask = ints[i + U_MASK]!;
    const endPiece = end < 0 ? this.unitEndPiece : end;
    if (this.base < 0 || mask <= 0 || endPiece < 0 || !(this.plainTable || this.plainUnit(u, i))) {
      this.writeChecked(u, endBytes);
      return;
    }
    const block = this.blockPiece(mask);
    const relevance = this.numberPiece(t.relevanceOf(u));
    const first = this.numberPiece(t.firstIterationOf(u));
    const kind = this.kindPieces[ints[i + U_KIND]!]!;
    if (block < 0 || relevance < 0 || first < 0 || this.headPiece < 0 || this.firstIterationPiece < 0 || kind < 0) {
      this.writeChecked(u, endBytes);
      return;
    }
    const po = this.pieceOff;
    const pl = this.pieceLen;
    const pathLen = ints[i + U_PATH + 1]!;
    const symbolLen = ints[i + U_SYMBOL + 1]!;
    const sigLen = ints[i + U_SIGNATURE + 1]!;
    const reuseLen = ints[i + U_REUSE + 1]!;
    const evidLen = ints[i + U_EVIDENCE + 1]!;
    const notesLen = ints[i + U_NOTES + 1]!;
    const texts = 64 + pathLen + symbolLen + sigLen + reuseLen + evidLen + notesLen;
    const w = this.w;
    w.ensure(texts + pl[block]! + pl[kind]! + pl[relevance]! + pl[first]! + pl[endPiece]! + FIXED_PIECES);
    if (w.buf.byteOffset - t.arena.byteOffset !== this.base || w.buf.buffer !== t.arena.buffer) {
      // A record larger than the writer's buffer was given one of its own.
      this.writeChecked(u, endBytes);
      return;
    }
    const a = t.arena;
    let p = this.base + w.pos;
    p = put(a, p, po[this.headPiece]!, pl[this.headPiece]!);
    t.writeDerivedId(u, a, p);
    p = put(a, p + 64, po[this.afterIdPiece]!, pl[this.afterIdPiece]!);
    p = put(a, p, ints[i + U_PATH]!, pathLen);
    p = put(a, p, po[this.afterPathPiece]!, pl[this.afterPathPiece]!);
    p = put(a, p, ints[i + U_SYMBOL]!, symbolLen);
    p = put(a, p, po[kind]!, pl[kind]!);
    p = put(a, p, ints[i + U_SIGNATURE]!, sigLen);
    p = put(a, p, po[this.afterSignaturePiece]!, pl[this.afterSignaturePiece]!);
    p = put(a, p, ints[i + U_REUSE]!, reuseLen);
    p = put(a, p, po[this.afterReusePiece]!, pl[this.afterReusePiece]!);
    p = put(a, p, ints[i + U_EVIDENCE]!, evidLen);
    p = put(a, p, po[this.afterEvidencePiece]!, pl[this.afterEvidencePiece]!);
    p = put(a, p, ints[i + U_NOTES]!, notesLen);
    p = put(a, p, po[block]!, pl[block]!);
    p = put(a, p, po[relevance]!, pl[relevance]!);
    p = put(a, p, po[this.firstIterationPiece]!, pl[this.firstIterationPiece]!);
    p = put(a, p, po[first]!, pl[first]!);
    p = put(a, p, po[endPiece]!, pl[endPiece]!);
    w.pos = p - this.base;
  }

  /** Whether unit u's record can be copied as it stands: texts in the arena, its kind's own name, a derived id. */
  private plainUnit(u: number, i: number): boolean {
    const t = this.t;
    const ints = t.ints;
    return (
      t.producerNames.length <= 31 &&
      ints[i + U_PATH]! >= 0 &&
      ints[i + U_SYMBOL]! >= 0 &&
      ints[i + U_SIGNATURE]! >= 0 &&
      ints[i + U_REUSE]! >= 0 &&
      ints[i + U_EVIDENCE]! >= 0 &&
      ints[i + U_NOTES]! >= 0 &&
      KIND_NAMES[ints[i + U_KIND]!] === t.kindOf(u) &&
      t.hasDerivedId(u)
    );
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

/** Length of the fast path's fixed pieces (those whose length does not depend on the unit). */
const FIXED_PIECES = P_HEAD.length + P_AFTER_ID.length + P_AFTER_PATH.length + P_AFTER_SIGNATURE.length + P_AFTER_REUSE.length + P_AFTER_EVIDENCE.length + P_FIRST_ITERATION.length;

/** Copies a[from, from + len) to a[p] (the arena's own memory, a native copy); returns the index after it. */
function put(a: Buffer, p: number, from: number, len: number): number {
  a.copyWithin(p, from, from + len);
  return p + len;
}

function writeRows(w: ByteWriter, key: string, rows: Int32Array, units: UnitWriter, end: number, endBytes: Buffer | null): void {
  if (rows.length === 0) {
    w.text(`  ${q(key)}: [],\n`);
    return;
  }
  w.text(`  ${q(key)}: [\n`);
  for (let k = 0; k < rows.length; k++) {
    if (k) w.bytes(COMMA_NEWLINE);
    units.write(rows[k]!, end, endBytes);
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

/**
 * findings-registry.json, `JSON.stringify(registry, null, 2) + "\n"`, into `w` (not flushed).
 * `pieces`: arena bytes the fast path may use for its constant pieces, when `w`'s buffer lies
 * in the table's arena too (writeRegistry); without them every record is written piece by piece.
 */
export function writeRegistryJson(w: ByteWriter, reg: RegistryBuckets, tail: RegistryTail, pieces: { off: number; length: number } | null = null): void {
  const units = new UnitWriter(w, reg.table, reg.agreementMin, pieces);
  w.text("{\n");
  BUCKETS.forEach((name, b) => writeRows(w, name, reg.bucketRows[b]!, units, -1, null));
  const dropped = ascii(`,\n      "droppedBelowGate": ${num(reg.relevanceGate)}\n    }`);
  writeRows(w, "lowConfidence", reg.lowConfidenceRows, units, units.droppedPiece(dropped), dropped);
  writeArray(w, "contradictions", reg.contradictions, (c) =>
    w.text(`    {\n      "unit_id": ${q(c.unit_id)},\n      "path": ${q(c.path)},\n      "symbol": ${q(c.symbol)},\n      "field": ${q(c.field)},\n      "values": ${stringMap(c.values)}\n    }`),
  );
  w.text(`  "metrics": ${nested(reg.metrics, "  ")},\n`);
  TAIL_KEYS.forEach((key, i) => w.text(`  ${q(key)}: ${nested(tail[key], "  ")}${i === TAIL_KEYS.length - 1 ? "\n" : ",\n"}`));
  w.text("}\n");
}

/**
 * findings-registry.json's bytes, handed to `sink` a buffer at a time (the sink must use them
 * before returning). The output buffer and the constant pieces are placed in the table's arena
 * after its texts, where records are copied together (see UnitWriter).
 */
export function writeRegistry(sink: (bytes: Buffer, length: number) => void, reg: RegistryBuckets, tail: RegistryTail): void {
  const t = reg.table;
  const at = t.scratch(PIECE_ROOM + WRITER_ROOM);
  const w = new ByteWriter(sink, t.arena.subarray(at + PIECE_ROOM, at + PIECE_ROOM + WRITER_ROOM));
  writeRegistryJson(w, reg, tail, { off: at, length: PIECE_ROOM });
  w.flush();
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
