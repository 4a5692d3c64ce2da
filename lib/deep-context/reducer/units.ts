/**
 * Dedup of seat findings into units (the reference's dedupByUnit): one unit per unit_id,
 * in order of first appearance, with per-producer attribution.
 *
 * A derived unit_id is sha256 of the normalised `path:symbol:kind` (the "composite"). Equal
 * composites give equal ids, so derived findings are matched by composite text through a
 * 32-bit FNV-1a table — the byte scanner looks a finding up straight from the file's bytes —
 * and each unit's sha256 is computed once, when first asked for. Explicit `unit_id`s share
 * the id space: from the first one on, derived ids are hashed eagerly so that an explicit
 * id equal to a derived one lands on the same unit, as in the reference.
 *
 * Storage is columnar and off the JS heap, because a packet holds tens of thousands of units
 * and their texts: numbers in typed arrays, texts as byte ranges of one arena. A text is a
 * pair (off, len): off ≥ 0 is arena bytes [off, off + len), which are always JSON-safe
 * ASCII (no quote, backslash or control byte — the bytes are also the JSON string body);
 * off < 0 is string number -off-1 of a side list (anything else, rare); (0, 0) is "".
 * `Unit` objects are views of one row, for the registry's consumers and the tests.
 */
import { latin1 } from "./json-scan";
import { sha256HexInto, sha256HexOfBytes, sha256HexOfText } from "../../core/sha256-js";

/** Finding kinds in registry-bucket order; the first is the default for a missing kind. */
export const KIND_NAMES = ["reuse_candidate", "integration_point", "convention", "dependency", "gap"] as const;
export const KIND_BYTES = KIND_NAMES.map((k) => Buffer.from(k, "latin1"));

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** FNV-1a over a string's UTF-16 units; equals FNV-1a over the bytes of the same text when it is ASCII. */
export function fnvString(s: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

/**
 * FNV-1a of a composite `p:s:k` up to its last colon, then its kind: mixed in by number when
 * `k` is a kind's name (the byte scanner's way, without hashing the name's bytes), else FNV-1a
 * on over its characters. Equal composites hash alike however they were spelled or split.
 */
export function kindHash(prefixHash: number, kindIndex: number): number {
  return Math.imul(prefixHash ^ (0x100 + kindIndex), FNV_PRIME);
}

/** The slot table's hash of a composite string (see kindHash). */
export function compositeHash(s: string): number {
  const colon = s.lastIndexOf(":");
  let h = FNV_OFFSET;
  for (let i = 0; i <= colon; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  const k = (KIND_NAMES as readonly string[]).indexOf(s.slice(colon + 1));
  if (colon >= 0 && k >= 0) return kindHash(h, k);
  for (let i = colon + 1; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

/** Text that can live in the arena: printable ASCII (and DEL) without `"` or `\`. */
const ARENA_SAFE = /^[\x20\x21\x23-\x5b\x5d-\x7f]*$/;

// Unit columns (Int32, stride U_STRIDE).
export const U_KEY_OFF = 0; // composite: arena offset, or -1-i for string i; KEY_NONE for explicit units
export const U_KEY_LEN = 1;
export const U_PATH = 2; // text (off, len) pairs
export const U_SYMBOL = 4;
export const U_SIGNATURE = 6;
export const U_REUSE = 8;
export const U_EVIDENCE = 10;
export const U_NOTES = 12;
export const U_KIND = 14;
export const U_ATTR_HEAD = 15;
export const U_ATTR_TAIL = 16;
export const U_AGREEMENT = 17;
/** The unit's producers as a bit mask of their ids (bit 31: an id over 30, which the mask cannot hold). */
export const U_MASK = 18;
/** Bit 1: a producer gave a non-empty signature other than the unit's first; bit 2: the same for reuse. */
export const U_DIFFERS = 19;
/**
 * Length of the path within the unit's arena composite: a finding spelled with the same bytes
 * and the same split is known to be normalised (-1: not known, check).
 */
export const U_SPLIT = 20;
const U_STRIDE = 21;
const KEY_NONE = -0x7fffffff;

// Unit numbers (Float64, stride 3).
const N_MAX_RELEVANCE = 0;
const N_FIRST_ITERATION = 1;
const N_RELEVANCE = 2;

// Attribution entries (Int32, stride A_STRIDE): producer, latest signature, latest reuse, next entry.
export const A_PRODUCER = 0;
export const A_SIGNATURE = 1;
export const A_REUSE = 3;
export const A_NEXT = 5;
const A_STRIDE = 6;

export class UnitTable {
  /** Number of units. */
  count = 0;
  /** JSON-safe ASCII text bytes; `arenaLength` of them are used. */
  arena: Buffer;
  arenaLength = 0;
  /** Side list of texts that cannot live in the arena. */
  readonly strings: string[] = [];
  ints: Int32Array;
  nums: Float64Array;
  attrs: Int32Array;
  attrCount = 0;
  /** Producer labels by id, and ids by label. */
  readonly producerNames: string[] = [];
  private readonly producerIds = new Map<string, number>();

  /**
   * Open-addressing table of arena composites, by pairs: the composite's hash, then its unit
   * index + 1 (0 when empty). A probe compares hashes here, without reading the unit's row.
   */
  private slots: Int32Array;
  private slotMask: number;
  /** Composites that are not arena text, by string. */
  private readonly stringKeys = new Map<string, number>();
  /** Units by id; only kept once an explicit id has been seen. */
  private byId: Map<string, number> | null = null;
  /** Explicit unit ids by unit. */
  private readonly ids: (string | undefined)[] = [];
  /** Derived ids computed so far (sha256 of the composite). */
  private readonly derivedIds: (string | undefined)[] = [];
  /** A unit's kind when it is not KIND_NAMES[kindIndex] (only through the string API). */
  private kindOverride: Map<number, string> | null = null;
  private views: Unit[] = [];
  private keyScratch = Buffer.allocUnsafe(256);

  /** Text result of `internText` / `spanText`: (textOff, textLen). */
  textOff = 0;
  textLen = 0;

  /**
   * A table sized for about `expectedUnits` units, `expectedAttrs` attributions and
   * `arenaBytes` of text (it grows past them). Memory is only touched as it fills.
   */
  constructor(expectedUnits = 1024, arenaBytes = 1 << 16, options: { expectedAttrs?: number } = {}) {
    const cap = Math.max(16, expectedUnits);
    this.ints = new Int32Array(cap * U_STRIDE);
    this.nums = new Float64Array(cap * 3);
    this.attrs = new Int32Array(Math.max(64, options.expectedAttrs ?? cap * 4) * A_STRIDE);
    this.arena = Buffer.allocUnsafeSlow(Math.max(1024, arenaBytes));
    // Probes land at random, so a table that stays in the cache matters more than a sparse one:
    // sized for the expected units (it doubles past half full).
    let size = 64;
    while (size < cap) size *= 2;
    this.slots = new Int32Array(size * 2);
    this.slotMask = size - 1;
  }

  // ---- texts

  /** Makes room for `n` more arena bytes. */
  reserveArena(n: number): Buffer {
    if (this.arenaLength + n > this.arena.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(this.arena.length * 2, this.arenaLength + n + 1024));
      this.arena.copy(bigger, 0, 0, this.arenaLength);
      this.arena = bigger;
    }
    return this.arena;
  }

  /**
   * The arena offset of `n` free bytes after the texts (the arena grows to hold them), for
   * scratch use until the next text is added: the registry writer's buffer and pieces.
   */
  scratch(n: number): number {
    this.reserveArena(n);
    return this.arenaLength;
  }

  /** Sets (textOff, textLen) to a text for `s`, normalised already. */
  internText(s: string): void {
    if (s.length === 0) {
      this.textOff = 0;
      this.textLen = 0;
    } else if (ARENA_SAFE.test(s)) {
      const a = this.reserveArena(s.length);
      const off = this.arenaLength;
      a.write(s, off, s.length, "latin1");
      this.arenaLength += s.length;
      this.textOff = off;
      this.textLen = s.length;
    } else {
      this.strings.push(s);
      this.textOff = -this.strings.length;
      this.textLen = s.length;
    }
  }

  /**
   * Sets (textOff, textLen) to the text of JSON-safe ASCII bytes src[s, e), when they are
   * already normalised (no leading, trailing or doubled space); returns false otherwise.
   * Reuses an equal arena text among the two candidates instead of copying.
   */
  spanText(src: Uint8Array, s: number, e: number, c1Off: number, c1Len: number, c2Off: number, c2Len: number): boolean {
    const len = e - s;
    if (len === 0) {
      this.textOff = 0;
      this.textLen = 0;
      return true;
    }
    const a = this.arena;
    if (c1Len === len && c1Off >= 0) {
      let k = 0;
      while (k < len && a[c1Off + k] === src[s + k]) k++;
      if (k === len) {
        this.textOff = c1Off;
        this.textLen = len;
        return true;
      }
    }
    if (c2Len === len && c2Off >= 0 && c2Off !== c1Off) {
      let k = 0;
      while (k < len && a[c2Off + k] === src[s + k]) k++;
      if (k === len) {
        this.textOff = c2Off;
        this.textLen = len;
        return true;
      }
    }
    if (src[s] === 0x20 || src[e - 1] === 0x20) return false;
    const out = this.reserveArena(len);
    const off = this.arenaLength;
    let prev = 0;
    for (let k = 0; k < len; k++) {
      const c = src[s + k]!;
      if (c === 0x20 && prev === 0x20) return false;
      out[off + k] = c;
      prev = c;
    }
    this.arenaLength = off + len;
    this.textOff = off;
    this.textLen = len;
    return true;
  }

  textOf(off: number, len: number): string {
    if (len === 0) return "";
    return off >= 0 ? latin1(this.arena, off, off + len) : this.strings[-off - 1]!;
  }

  /** Whether two texts are equal. */
  textEquals(aOff: number, aLen: number, bOff: number, bLen: number): boolean {
    if (aLen !== bLen) return false;
    if (aOff === bOff || aLen === 0) return true;
    if (aOff >= 0 && bOff >= 0) {
      const a = this.arena;
      for (let k = 0; k < aLen; k++) if (a[aOff + k] !== a[bOff + k]) return false;
      return true;
    }
    // Arena texts and side-list texts never spell the same string.
    return aOff < 0 && bOff < 0 && this.strings[-aOff - 1] === this.strings[-bOff - 1];
  }

  text(u: number, field: number): string {
    const i = u * U_STRIDE + field;
    return this.textOf(this.ints[i]!, this.ints[i + 1]!);
  }

  setText(u: number, field: number, s: string): void {
    this.internText(s);
    const i = u * U_STRIDE + field;
    this.ints[i] = this.textOff;
    this.ints[i + 1] = this.textLen;
  }

  /** Whether a unit's text field is "". */
  textEmpty(u: number, field: number): boolean {
    return this.ints[u * U_STRIDE + field + 1] === 0;
  }

  // ---- producers

  producerId(label: string): number {
    let id = this.producerIds.get(label);
    if (id === undefined) {
      id = this.producerNames.length;
      this.producerNames.push(label);
      this.producerIds.set(label, id);
    }
    return id;
  }

  // ---- units

  private grow(): void {
    const cap = (this.ints.length / U_STRIDE) * 2;
    const ints = new Int32Array(cap * U_STRIDE);
    ints.set(this.ints);
    this.ints = ints;
    const nums = new Float64Array(cap * 3);
    nums.set(this.nums);
    this.nums = nums;
  }

  private newUnit(keyOff: number, keyLen: number, kindIndex: number, iteration: number): number {
    if ((this.count + 1) * U_STRIDE > this.ints.length) this.grow();
    const u = this.count++;
    const i = u * U_STRIDE;
    const ints = this.ints;
    ints.fill(0, i, i + U_STRIDE);
    ints[i + U_KEY_OFF] = keyOff;
    ints[i + U_KEY_LEN] = keyLen;
    ints[i + U_KIND] = kindIndex;
    ints[i + U_ATTR_HEAD] = -1;
    ints[i + U_ATTR_TAIL] = -1;
    ints[i + U_SPLIT] = -1;
    const n = u * 3;
    this.nums[n + N_MAX_RELEVANCE] = -Infinity;
    this.nums[n + N_FIRST_ITERATION] = Number.isFinite(iteration) ? iteration : 0;
    this.nums[n + N_RELEVANCE] = 0;
    return u;
  }

  private insertSlot(u: number, hash: number): void {
    if (this.count * 2 > this.slotMask) this.rehash();
    const mask = this.slotMask;
    let p = hash & mask;
    while (this.slots[2 * p + 1] !== 0) p = (p + 1) & mask;
    this.slots[2 * p] = hash;
    this.slots[2 * p + 1] = u + 1;
  }

  private rehash(): void {
    const size = (this.slotMask + 1) * 2;
    const slots = new Int32Array(size * 2);
    const mask = size - 1;
    const old = this.slots;
    for (let k = 0; k < old.length; k += 2) {
      const v = old[k + 1]!;
      if (v === 0) continue;
      const h = old[k]!;
      let p = h & mask;
      while (slots[2 * p + 1] !== 0) p = (p + 1) & mask;
      slots[2 * p] = h;
      slots[2 * p + 1] = v;
    }
    this.slots = slots;
    this.slotMask = mask;
  }

  /**
   * The unit whose composite is `path:symbol:kind` spelled by src[ps, ps + pl), ':',
   * src[ss, ss + sl), ':', the kind's name; `hash` is its compositeHash. -1 when none.
   */
  findBytes(src: Uint8Array, ps: number, pl: number, ss: number, sl: number, kindIndex: number, hash: number): number {
    const kb = KIND_BYTES[kindIndex]!;
    const total = pl + sl + kb.length + 2;
    const mask = this.slotMask;
    const slots = this.slots;
    const ints = this.ints;
    const a = this.arena;
    for (let p = hash & mask; ; p = (p + 1) & mask) {
      const v = slots[2 * p + 1]!;
      if (v === 0) return -1;
      if (slots[2 * p] !== hash) continue;
      const i = (v - 1) * U_STRIDE;
      if (ints[i + U_KEY_LEN] !== total) continue;
      let o = ints[i + U_KEY_OFF]!;
      let k = 0;
      while (k < pl && a[o + k] === src[ps + k]) k++;
      if (k < pl) continue;
      o += pl;
      if (a[o++] !== 0x3a) continue;
      k = 0;
      while (k < sl && a[o + k] === src[ss + k]) k++;
      if (k < sl) continue;
      o += sl;
      if (a[o++] !== 0x3a) continue;
      k = 0;
      while (k < kb.length && a[o + k] === kb[k]) k++;
      if (k < kb.length) continue;
      return v - 1;
    }
  }

  /**
   * Registers the composite of `findBytes` (not in the table yet, normalised, JSON-safe
   * ASCII); its unit is new unless an explicit id equals its hash. Returns the unit.
   */
  createBytes(src: Uint8Array, ps: number, pl: number, ss: number, sl: number, kindIndex: number, hash: number, iteration: number): number {
    const kb = KIND_BYTES[kindIndex]!;
    const total = pl + sl + kb.length + 2;
    const a = this.reserveArena(total);
    const off = this.arenaLength;
    let o = off;
    for (let k = 0; k < pl; k++) a[o++] = src[ps + k]!;
    a[o++] = 0x3a;
    for (let k = 0; k < sl; k++) a[o++] = src[ss + k]!;
    a[o++] = 0x3a;
    for (let k = 0; k < kb.length; k++) a[o++] = kb[k]!;
    this.arenaLength = o;
    return this.registerArenaKey(off, total, pl, sl, kindIndex, hash, iteration);
  }

  /** `spelled`: the composite is `path:symbol:kind` with the path pl bytes long (else the unit's names are set apart). */
  private registerArenaKey(off: number, total: number, pl: number, sl: number, kindIndex: number, hash: number, iteration: number, spelled = true): number {
    let u = -1;
    let id: string | undefined;
    if (this.byId) {
      id = this.hexOf(off, total);
      u = this.byId.get(id) ?? -1;
    }
    if (u < 0) {
      u = this.newUnit(off, total, kindIndex, iteration);
      const i = u * U_STRIDE;
      this.ints[i + U_PATH] = off;
      this.ints[i + U_PATH + 1] = pl;
      this.ints[i + U_SYMBOL] = off + pl + 1;
      this.ints[i + U_SYMBOL + 1] = sl;
      if (spelled) this.ints[i + U_SPLIT] = pl;
      if (id !== undefined) {
        this.derivedIds[u] = id;
        this.byId!.set(id, u);
      }
    } else {
      // An explicit unit with this composite's id (only one composite can have it): it keeps
      // its own names and now answers to the composite too.
      const i = u * U_STRIDE;
      this.ints[i + U_KEY_OFF] = off;
      this.ints[i + U_KEY_LEN] = total;
    }
    this.insertSlot(u, hash);
    return u;
  }

  /** Lowercase hex sha256 of arena bytes (ASCII, so their UTF-8 is their Latin-1). */
  private hexOf(off: number, len: number): string {
    return sha256HexOfBytes(this.arena, off, len);
  }

  /** Whether unit u's id is the sha256 of an arena composite (so `writeDerivedId` can write it). */
  hasDerivedId(u: number): boolean {
    const i = u * U_STRIDE;
    return this.ids[u] === undefined && this.ints[i + U_KEY_OFF]! >= 0 && this.ints[i + U_KEY_LEN] !== KEY_NONE;
  }

  /** Writes unit u's id as 64 hex digits (derived) at out[o]; returns false for an explicit id (use `unitId`). */
  writeDerivedId(u: number, out: Uint8Array, o: number): boolean {
    const i = u * U_STRIDE;
    const off = this.ints[i + U_KEY_OFF]!;
    if (this.ids[u] !== undefined || off < 0 || this.ints[i + U_KEY_LEN] === KEY_NONE) return false;
    // Not kept: the registry asks for each id once, and hashed where it goes, without a string.
    const id = this.derivedIds[u];
    if (id === undefined) sha256HexInto(this.arena, off, this.ints[i + U_KEY_LEN]!, out, o);
    else for (let k = 0; k < 64; k++) out[o + k] = id.charCodeAt(k);
    return true;
  }

  unitId(u: number): string {
    let id = this.ids[u] ?? this.derivedIds[u];
    if (id === undefined) {
      const i = u * U_STRIDE;
      const off = this.ints[i + U_KEY_OFF]!;
      id = off >= 0 ? this.hexOf(off, this.ints[i + U_KEY_LEN]!) : sha256HexOfText(this.strings[-off - 1]!);
      this.derivedIds[u] = id;
    }
    return id;
  }

  /** The unit of a composite, by text (-1 when none). */
  findComposite(composite: string): number {
    if (ARENA_SAFE.test(composite)) {
      const len = composite.length;
      if (this.keyScratch.length < len) this.keyScratch = Buffer.allocUnsafe(len * 2);
      const b = this.keyScratch;
      b.write(composite, 0, len, "latin1");
      const hash = compositeHash(composite);
      const mask = this.slotMask;
      for (let p = hash & mask; ; p = (p + 1) & mask) {
        const v = this.slots[2 * p + 1]!;
        if (v === 0) return -1;
        if (this.slots[2 * p] !== hash) continue;
        const i = (v - 1) * U_STRIDE;
        if (this.ints[i + U_KEY_LEN] !== len) continue;
        const o = this.ints[i + U_KEY_OFF]!;
        let k = 0;
        while (k < len && this.arena[o + k] === b[k]) k++;
        if (k === len) return v - 1;
      }
    }
    return this.stringKeys.get(composite) ?? -1;
  }

  /** Registers a composite not in the table yet (string form); returns its unit. */
  createComposite(composite: string, path: string, symbol: string, kindIndex: number, iteration: number): number {
    let u: number;
    if (ARENA_SAFE.test(composite)) {
      const len = composite.length;
      const a = this.reserveArena(len);
      const off = this.arenaLength;
      a.write(composite, off, len, "latin1");
      this.arenaLength += len;
      const kind = KIND_NAMES[kindIndex];
      const pl = path.length;
      const sl = symbol.length;
      if (kind !== undefined && pl + sl + kind.length + 2 === len && composite === `${path}:${symbol}:${kind}`) {
        return this.registerArenaKey(off, len, pl, sl, kindIndex, compositeHash(composite), iteration);
      }
      u = this.registerArenaKey(off, len, 0, 0, kindIndex, compositeHash(composite), iteration, false);
    } else {
      let id: string | undefined;
      u = -1;
      if (this.byId) {
        id = sha256HexOfText(composite);
        u = this.byId.get(id) ?? -1;
      }
      if (u >= 0) {
        this.stringKeys.set(composite, u);
        return u;
      }
      this.strings.push(composite);
      u = this.newUnit(-this.strings.length, composite.length, kindIndex, iteration);
      this.stringKeys.set(composite, u);
      if (id !== undefined) {
        this.derivedIds[u] = id;
        this.byId!.set(id, u);
      }
    }
    // Names not spelled by the composite's prefix (only through the string API).
    if (this.ints[u * U_STRIDE + U_PATH + 1] === 0 && this.ints[u * U_STRIDE + U_SYMBOL + 1] === 0) {
      this.setText(u, U_PATH, path);
      this.setText(u, U_SYMBOL, symbol);
    }
    return u;
  }

  /** The unit of an explicit unit_id, creating it if new. */
  explicitUnit(id: string, path: string, symbol: string, kindIndex: number, iteration: number): number {
    if (!this.byId) {
      this.byId = new Map();
      for (let u = 0; u < this.count; u++) this.byId.set(this.unitId(u), u);
    }
    let u = this.byId.get(id);
    if (u === undefined) {
      u = this.newUnit(0, KEY_NONE, kindIndex, iteration);
      this.ids[u] = id;
      this.byId.set(id, u);
      this.setText(u, U_PATH, path);
      this.setText(u, U_SYMBOL, symbol);
    }
    return u;
  }

  /** Whether unit u's composite is spelled with a path of pl bytes (see U_SPLIT). */
  splitIs(u: number, pl: number): boolean {
    return this.ints[u * U_STRIDE + U_SPLIT] === pl;
  }

  /** Whether the table holds explicit ids (derived lookups must then check ids too). */
  get hasExplicitIds(): boolean {
    return this.byId !== null;
  }

  /** Whether some unit's kind is not its kind index's name (only through the string API). */
  get hasKindOverrides(): boolean {
    return this.kindOverride !== null && this.kindOverride.size > 0;
  }

  kindIndexOf(u: number): number {
    return this.ints[u * U_STRIDE + U_KIND]!;
  }

  kindOf(u: number): string {
    return this.kindOverride?.get(u) ?? KIND_NAMES[this.kindIndexOf(u)] ?? "";
  }

  setKind(u: number, kind: string): void {
    if (KIND_NAMES[this.kindIndexOf(u)] !== kind) (this.kindOverride ??= new Map()).set(u, kind);
  }

  // ---- observations

  /** The attribution entry of producer p on unit u, appended (empty texts) when new. */
  attrFor(u: number, p: number): number {
    const i = u * U_STRIDE;
    const attrs = this.attrs;
    for (let e = this.ints[i + U_ATTR_HEAD]!; e >= 0; e = attrs[e * A_STRIDE + A_NEXT]!) if (attrs[e * A_STRIDE + A_PRODUCER] === p) return e;
    if ((this.attrCount + 1) * A_STRIDE > this.attrs.length) {
      const bigger = new Int32Array(this.attrs.length * 2);
      bigger.set(this.attrs);
      this.attrs = bigger;
    }
    const e = this.attrCount++;
    const a = this.attrs;
    const o = e * A_STRIDE;
    a[o + A_PRODUCER] = p;
    a[o + A_SIGNATURE] = 0;
    a[o + A_SIGNATURE + 1] = 0;
    a[o + A_REUSE] = 0;
    a[o + A_REUSE + 1] = 0;
    a[o + A_NEXT] = -1;
    const tail = this.ints[i + U_ATTR_TAIL]!;
    if (tail < 0) this.ints[i + U_ATTR_HEAD] = e;
    else a[tail * A_STRIDE + A_NEXT] = e;
    this.ints[i + U_ATTR_TAIL] = e;
    this.ints[i + U_AGREEMENT] = this.ints[i + U_AGREEMENT]! + 1;
    this.ints[i + U_MASK] = this.ints[i + U_MASK]! | (p <= 30 ? 1 << p : 1 << 31);
    return e;
  }

  /** Max relevance and earliest finite iteration of one finding of unit u. */
  observeNumbers(u: number, relevance: number, iteration: number): void {
    const n = u * 3;
    this.nums[n + N_MAX_RELEVANCE] = Math.max(this.nums[n + N_MAX_RELEVANCE]!, relevance);
    if (Number.isFinite(iteration)) this.nums[n + N_FIRST_ITERATION] = Math.min(this.nums[n + N_FIRST_ITERATION]!, iteration);
  }

  /** Sets attribution entry e's signature (field A_SIGNATURE) or reuse (A_REUSE), and the unit's first non-empty one. */
  setAttrText(u: number, e: number, field: number, off: number, len: number): void {
    const o = e * A_STRIDE + field;
    this.attrs[o] = off;
    this.attrs[o + 1] = len;
    if (len !== 0) {
      const i = u * U_STRIDE + (field === A_SIGNATURE ? U_SIGNATURE : U_REUSE);
      if (this.ints[i + 1] === 0) {
        this.ints[i] = off;
        this.ints[i + 1] = len;
      } else if (this.ints[i] !== off) {
        // Another text than the first (equal texts share their arena bytes, except through
        // the string API): only units marked here can hold a contradiction.
        const d = u * U_STRIDE + U_DIFFERS;
        if (this.ints[d] === 0) this.marked.push(u);
        this.ints[d] = this.ints[d]! | (field === A_SIGNATURE ? 1 : 2);
      }
    }
  }

  /** Units marked by setAttrText, in the order they were first marked. */
  readonly marked: number[] = [];

  /** Whether unit u was marked (see U_DIFFERS): a contradiction is only possible then. */
  differs(u: number): boolean {
    return this.ints[u * U_STRIDE + U_DIFFERS] !== 0;
  }

  /** The reference's observe with string values. */
  observe(u: number, producer: string, relevance: number, iteration: number, signature: string, reuse: string): void {
    const e = this.attrFor(u, this.producerId(producer));
    this.observeNumbers(u, relevance, iteration);
    this.internText(signature);
    this.setAttrText(u, e, A_SIGNATURE, this.textOff, this.textLen);
    this.internText(reuse);
    this.setAttrText(u, e, A_REUSE, this.textOff, this.textLen);
  }

  maxRelevanceOf(u: number): number {
    return this.nums[u * 3 + N_MAX_RELEVANCE]!;
  }
  firstIterationOf(u: number): number {
    return this.nums[u * 3 + N_FIRST_ITERATION]!;
  }
  relevanceOf(u: number): number {
    return this.nums[u * 3 + N_RELEVANCE]!;
  }
  setRelevance(u: number, r: number): void {
    this.nums[u * 3 + N_RELEVANCE] = r;
  }
  agreementOf(u: number): number {
    return this.ints[u * U_STRIDE + U_AGREEMENT]!;
  }
  attrHead(u: number): number {
    return this.ints[u * U_STRIDE + U_ATTR_HEAD]!;
  }

  // ---- the string API (the JSON.parse decoder and the tests)

  /** Unit views, in order of first appearance. */
  get units(): Unit[] {
    if (this.unitList.length !== this.count) {
      const out: Unit[] = new Array<Unit>(this.count);
      for (let u = 0; u < this.count; u++) out[u] = this.view(u);
      this.unitList = out;
    }
    return this.unitList;
  }
  private unitList: Unit[] = [];

  view(u: number): Unit {
    return (this.views[u] ??= new Unit(this, u));
  }

  /** The unit of a composite, by text. The hash argument is ignored (kept for callers that have it). */
  derived(composite: string, _hash?: number): Unit | undefined {
    const u = this.findComposite(composite);
    return u < 0 ? undefined : this.view(u);
  }

  /** Registers a composite not in the table yet; its unit is new unless an explicit id equals its hash. */
  createDerived(composite: string, _hash: number, path: string, symbol: string, kind: string, kindIndex: number, iteration: number): Unit {
    const before = this.count;
    const u = this.createComposite(composite, path, symbol, kindIndex, iteration);
    if (this.count > before) this.setKind(u, kind);
    return this.view(u);
  }

  /** The unit of an explicit unit_id, creating it if new. */
  explicit(id: string, path: string, symbol: string, kind: string, kindIndex: number, iteration: number): Unit {
    const before = this.count;
    const u = this.explicitUnit(id, path, symbol, kindIndex, iteration);
    if (u === before) this.setKind(u, kind);
    return this.view(u);
  }
}

/** One unit of a UnitTable, read (and observed) through its row. */
export class Unit {
  constructor(
    readonly table: UnitTable,
    readonly index: number,
  ) {}

  get path(): string {
    return this.table.text(this.index, U_PATH);
  }
  get symbol(): string {
    return this.table.text(this.index, U_SYMBOL);
  }
  get kind(): string {
    return this.table.kindOf(this.index);
  }
  get kindIndex(): number {
    return this.table.kindIndexOf(this.index);
  }
  /** First non-empty value from any producer. */
  get signature(): string {
    return this.table.text(this.index, U_SIGNATURE);
  }
  get reuse(): string {
    return this.table.text(this.index, U_REUSE);
  }
  get evidence(): string {
    return this.table.text(this.index, U_EVIDENCE);
  }
  set evidence(s: string) {
    this.table.setText(this.index, U_EVIDENCE, s);
  }
  get notes(): string {
    return this.table.text(this.index, U_NOTES);
  }
  set notes(s: string) {
    this.table.setText(this.index, U_NOTES, s);
  }
  get maxRelevance(): number {
    return this.table.maxRelevanceOf(this.index);
  }
  get firstIteration(): number {
    return this.table.firstIterationOf(this.index);
  }
  /** Set by buildRegistry: relevance rounded to 3 decimals (the sort key). */
  get relevance(): number {
    return this.table.relevanceOf(this.index);
  }
  get unitId(): string {
    return this.table.unitId(this.index);
  }
  get agreement(): number {
    return this.table.agreementOf(this.index);
  }

  /** Producers in order of first contribution. */
  get producers(): string[] {
    const t = this.table;
    const out: string[] = [];
    for (let e = t.attrHead(this.index); e >= 0; e = t.attrs[e * A_STRIDE + A_NEXT]!) out.push(t.producerNames[t.attrs[e * A_STRIDE + A_PRODUCER]!]!);
    return out;
  }

  /** Latest normalised signature (field 1) or reuse verb (field 2) per producer, in producer order. */
  valuesOf(field: 1 | 2): string[] {
    const t = this.table;
    const f = field === 1 ? A_SIGNATURE : A_REUSE;
    const out: string[] = [];
    for (let e = t.attrHead(this.index); e >= 0; e = t.attrs[e * A_STRIDE + A_NEXT]!) out.push(t.textOf(t.attrs[e * A_STRIDE + f]!, t.attrs[e * A_STRIDE + f + 1]!));
    return out;
  }

  /** One finding of this unit: attribution (last write per producer wins), max relevance, earliest iteration. */
  observe(producer: string, relevance: number, iteration: number, signature: string, reuse: string): void {
    this.table.observe(this.index, producer, relevance, iteration, signature, reuse);
  }
}

export const ATTR_STRIDE = A_STRIDE;
export const UNIT_STRIDE = U_STRIDE;
