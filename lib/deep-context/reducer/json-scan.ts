/**
 * A validating JSON scanner over the raw bytes of one seat file. It walks the findings
 * array (`[...]` or the `findings` member of `{...}`) and, for each element, records where
 * the nine fields the reducer reads start and end, without decoding the file or building
 * objects; the caller turns only the spans it needs into strings. Anything else is skipped
 * but still checked, so a file the scanner accepts is exactly a file JSON.parse accepts
 * (after the UTF-8 decoding fs.readFileSync(…, 'utf8') does: bytes ≥ 0x80 may only occur
 * inside strings, where they decode to characters or U+FFFD).
 *
 * Elements are handed to the callback as soon as they are read, so a file found invalid
 * (or with a second `findings` member) after some elements went out is reported as
 * `RESTART`: the caller must then redo the packet with a decoder that commits a file only
 * once it is known to be valid. A cheap pre-check (the last non-blank byte closes the first
 * bracket) turns the common torn file into a plain `FAILED` before anything is emitted.
 *
 * Containers nested deeper than MAX_NESTING make a file fail like invalid JSON does: its
 * values are never decoded, so nothing downstream (String() of a field, JSON.stringify)
 * recurses once per level on them.
 */
import { MAX_NESTING } from "../../core/fs/limits";

/** Value types of a captured field. */
export const T_MISSING = 0;
export const T_STRING = 1;
export const T_NUMBER = 2;
export const T_TRUE = 3;
export const T_FALSE = 4;
export const T_NULL = 5;
export const T_OBJECT = 6;
export const T_ARRAY = 7;

/**
 * String flags: an escape sequence, a byte ≥ 0x80. A string without either is JSON-safe
 * ASCII: its bytes are its text and its JSON.stringify form (between the quotes). Spaces are
 * not tracked here: the reducer checks them on the few spans it keeps.
 */
export const S_ESCAPE = 1;
export const S_NONASCII = 2;

/** Captured fields of a finding, by index. */
export const F_PATH = 0;
export const F_SYMBOL = 1;
export const F_KIND = 2;
export const F_SIGNATURE = 3;
export const F_REUSE = 4;
export const F_EVIDENCE = 5;
export const F_NOTES = 6;
export const F_RELEVANCE = 7;
export const F_UNIT_ID = 8;
export const FIELD_NAMES = ["path", "symbol", "kind", "signature", "reuse", "evidence", "notes", "relevance", "unit_id"] as const;
const FIELD_BYTES = FIELD_NAMES.map((n) => Buffer.from(n, "latin1"));
const FIELD_LENGTH = Uint8Array.from(FIELD_NAMES, (n) => n.length);

export const ScanOutcome = {
  /** Valid JSON holding a findings array; every element was emitted. */
  OK: 0,
  /** Not a seat: invalid JSON, or no findings array. Nothing was emitted. */
  FAILED: 1,
  /** Elements were emitted but the file must not count as read: redo the packet safely. */
  RESTART: 2,
} as const;
export type ScanOutcome = (typeof ScanOutcome)[keyof typeof ScanOutcome];

// Byte classes inside strings: 0 plain, 1 quote, 2 backslash, 3 control (invalid), 4 non-ASCII.
const STR_CLASS = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) STR_CLASS[c] = 3;
for (let c = 0x80; c < 0x100; c++) STR_CLASS[c] = 4;
STR_CLASS[0x22] = 1;
STR_CLASS[0x5c] = 2;

/**
 * The scanned buffer as little-endian 32-bit words, so plain string bytes are skipped four at
 * a time (`WORDS` covers the buffer's whole ArrayBuffer; `WORD_BASE` is the buffer's offset in
 * it). Null on big-endian hosts, where the byte loop does everything.
 */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
let WORDS: Int32Array | null = null;
let WORD_BASE = 0;
let wordsOf: ArrayBufferLike | null = null;
/** The same memory for unaligned little-endian reads of 4 bytes (any host), at WORD_BASE + index. */
let DV: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(8));

/** Points the word views at `b` (cheap when `b` shares the previous buffer's memory). */
function attach(b: Uint8Array): void {
  if (wordsOf !== b.buffer) {
    wordsOf = b.buffer;
    DV = new DataView(b.buffer);
    if (LITTLE_ENDIAN) WORDS = new Int32Array(b.buffer, 0, b.buffer.byteLength >> 2);
  }
  WORD_BASE = b.byteOffset;
}

const HEX = new Uint8Array(256);
for (const ch of "0123456789abcdefABCDEF") HEX[ch.charCodeAt(0)] = 1;

const WS = new Uint8Array(256);
WS[0x20] = 1;
WS[0x09] = 1;
WS[0x0a] = 1;
WS[0x0d] = 1;

interface SliceMethods {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}
const HAS_SLICE_METHODS = typeof (Buffer.prototype as unknown as Partial<SliceMethods>).latin1Slice === "function";

/** Bytes [s, e) as Latin-1 (for ASCII-only spans: the same text as UTF-8), without toString's dispatch. */
export function latin1(b: Buffer, s: number, e: number): string {
  return HAS_SLICE_METHODS ? (b as unknown as SliceMethods).latin1Slice(s, e) : b.toString("latin1", s, e);
}

/** Bytes [s, e) decoded as UTF-8 (invalid sequences become U+FFFD, as in fs.readFileSync(…, 'utf8')). */
export function utf8(b: Buffer, s: number, e: number): string {
  return HAS_SLICE_METHODS ? (b as unknown as SliceMethods).utf8Slice(s, e) : b.toString("utf8", s, e);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * One element of the findings array: its JSON type and, for objects, the captured fields
 * (the last occurrence of a repeated key wins, as with JSON.parse).
 */
export class FindingSpans {
  buf: Buffer = Buffer.alloc(0);
  elementType = T_MISSING;
  readonly type = new Uint8Array(FIELD_NAMES.length);
  readonly start = new Int32Array(FIELD_NAMES.length);
  readonly end = new Int32Array(FIELD_NAMES.length);
  readonly flags = new Uint8Array(FIELD_NAMES.length);
}

export type ElementHandler = (spans: FindingSpans) => void;

/** Scanner state shared by the helpers below (module-level: one scan at a time, synchronous). */
let strFlags = 0;
let stack = new Uint8Array(64);

/** Index after the JSON whitespace at i (runs of spaces, a pretty-printer's indentation, four at a time). */
function ws(b: Uint8Array, i: number, n: number): number {
  while (i < n) {
    const c = b[i]!;
    if (c === 0x20) {
      i += i + 4 <= n && DV.getInt32(WORD_BASE + i, true) === 0x20202020 ? 4 : 1;
    } else if (WS[c] === 1) {
      i++;
    } else {
      break;
    }
  }
  return i;
}

/** i is just after an opening quote; returns the index of the closing quote, or -1. Sets strFlags. */
function scanString(b: Uint8Array, i: number, n: number): number {
  let flags = 0;
  const words = WORDS;
  for (;;) {
    if (words !== null) {
      // Bytes up to a word boundary, then whole words while none holds a quote, a backslash,
      // a control byte or a byte ≥ 0x80 (SWAR: each test sets a byte's top bit).
      let a = WORD_BASE + i;
      while ((a & 3) !== 0 && i < n && STR_CLASS[b[i]!] === 0) {
        i++;
        a++;
      }
      if ((a & 3) === 0) {
        let w = a >> 2;
        const wl = (WORD_BASE + n) >> 2;
        while (w < wl) {
          const x = words[w]!;
          const q = x ^ 0x22222222;
          const s = x ^ 0x5c5c5c5c;
          if ((((x - 0x20202020) | x | ((q - 0x01010101) & ~q) | ((s - 0x01010101) & ~s)) & 0x80808080) !== 0) break;
          w++;
        }
        i = (w << 2) - WORD_BASE;
      }
    }
    while (i < n && STR_CLASS[b[i]!] === 0) i++;
    if (i >= n) return -1;
    const cls = STR_CLASS[b[i]!]!;
    if (cls === 1) {
      strFlags = flags;
      return i;
    }
    if (cls === 4) {
      flags |= S_NONASCII;
      i++;
    } else if (cls === 2) {
      flags |= S_ESCAPE;
      if (i + 1 >= n) return -1;
      const e = b[i + 1]!;
      if (e === 0x75) {
        if (i + 5 >= n || !HEX[b[i + 2]!] || !HEX[b[i + 3]!] || !HEX[b[i + 4]!] || !HEX[b[i + 5]!]) return -1;
        i += 6;
      } else if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
        i += 2;
      } else {
        return -1;
      }
    } else {
      return -1;
    }
  }
}

/** A JSON number at i; returns the index after it, or -1. */
function scanNumber(b: Uint8Array, i: number, n: number): number {
  if (b[i] === 0x2d) i++;
  if (i >= n) return -1;
  const c = b[i]!;
  if (c === 0x30) i++;
  else if (c >= 0x31 && c <= 0x39) {
    i++;
    while (i < n && isDigit(b[i]!)) i++;
  } else return -1;
  if (i < n && b[i] === 0x2e) {
    i++;
    if (i >= n || !isDigit(b[i]!)) return -1;
    while (i < n && isDigit(b[i]!)) i++;
  }
  if (i < n && (b[i] === 0x65 || b[i] === 0x45)) {
    i++;
    if (i < n && (b[i] === 0x2b || b[i] === 0x2d)) i++;
    if (i >= n || !isDigit(b[i]!)) return -1;
    while (i < n && isDigit(b[i]!)) i++;
  }
  return i;
}

function literal(b: Uint8Array, i: number, n: number, word: string): number {
  if (i + word.length > n) return -1;
  for (let k = 1; k < word.length; k++) if (b[i + k] !== word.charCodeAt(k)) return -1;
  return i + word.length;
}

function typeOfFirstByte(c: number): number {
  switch (c) {
    case 0x22:
      return T_STRING;
    case 0x7b:
      return T_OBJECT;
    case 0x5b:
      return T_ARRAY;
    case 0x74:
      return T_TRUE;
    case 0x66:
      return T_FALSE;
    case 0x6e:
      return T_NULL;
    default:
      return T_NUMBER;
  }
}

/** After an object key ending at the closing quote ke: skips `:` and blanks; returns the value's index or -1. */
function afterKey(b: Uint8Array, ke: number, n: number): number {
  // `": "` then the value, as pretty-printers write it.
  if (ke + 3 < n && b[ke + 1] === 0x3a && b[ke + 2] === 0x20 && WS[b[ke + 3]!] === 0) return ke + 3;
  let i = ws(b, ke + 1, n);
  if (i >= n || b[i] !== 0x3a) return -1;
  i = ws(b, i + 1, n);
  return i < n ? i : -1;
}

/** Any JSON value at i (non-blank); returns the index after it, or -1. Iterative: any depth. */
export function skipValue(b: Uint8Array, i: number, n: number): number {
  attach(b);
  return skipIn(b, i, n, Infinity);
}

/** The value at i, with at most `room` containers nested in it (the value itself included), or -1. */
function skipIn(b: Uint8Array, i: number, n: number, room: number): number {
  let sp = 0;
  for (;;) {
    // A value starts at i.
    let c = b[i]!;
    if (c === 0x7b || c === 0x5b) {
      if (sp >= room) return -1;
      const isObject = c === 0x7b;
      i = ws(b, i + 1, n);
      if (i >= n) return -1;
      c = b[i]!;
      if (c === (isObject ? 0x7d : 0x5d)) {
        i++;
      } else {
        if (sp === stack.length) {
          const bigger = new Uint8Array(stack.length * 2);
          bigger.set(stack);
          stack = bigger;
        }
        stack[sp++] = isObject ? 1 : 2;
        if (isObject) {
          if (c !== 0x22) return -1;
          const ke = scanString(b, i + 1, n);
          if (ke < 0) return -1;
          i = afterKey(b, ke, n);
          if (i < 0) return -1;
        }
        continue;
      }
    } else if (c === 0x22) {
      i = scanString(b, i + 1, n);
      if (i < 0) return -1;
      i++;
    } else if (c === 0x2d || isDigit(c)) {
      i = scanNumber(b, i, n);
      if (i < 0) return -1;
    } else if (c === 0x74) {
      i = literal(b, i, n, "true");
      if (i < 0) return -1;
    } else if (c === 0x66) {
      i = literal(b, i, n, "false");
      if (i < 0) return -1;
    } else if (c === 0x6e) {
      i = literal(b, i, n, "null");
      if (i < 0) return -1;
    } else {
      return -1;
    }
    // A value ended at i: close containers or move to the next member.
    for (;;) {
      if (sp === 0) return i;
      i = ws(b, i, n);
      if (i >= n) return -1;
      c = b[i]!;
      const top = stack[sp - 1];
      if (c === 0x2c) {
        i = ws(b, i + 1, n);
        if (i >= n) return -1;
        if (top === 1) {
          if (b[i] !== 0x22) return -1;
          const ke = scanString(b, i + 1, n);
          if (ke < 0) return -1;
          i = afterKey(b, ke, n);
          if (i < 0) return -1;
        }
        break;
      }
      if (c === (top === 1 ? 0x7d : 0x5d)) {
        sp--;
        i++;
        continue;
      }
      return -1;
    }
  }
}

function sameBytes(b: Uint8Array, s: number, e: number, word: Buffer): boolean {
  if (e - s !== word.length) return false;
  for (let k = 0; k < word.length; k++) if (b[s + k] !== word[k]) return false;
  return true;
}

/** Index of the captured field named by the key bytes [s, e), or -1. */
function fieldOfKey(b: Buffer, s: number, e: number, flags: number): number {
  if (flags !== 0) {
    // Escaped (or non-ASCII) key: compare its decoded text.
    const key = JSON.parse(utf8(b, s - 1, e + 1)) as string;
    return (FIELD_NAMES as readonly string[]).indexOf(key);
  }
  let f: number;
  switch (e - s) {
    case 4:
      f = b[s] === 0x70 ? F_PATH : F_KIND;
      break;
    case 5:
      f = b[s] === 0x72 ? F_REUSE : F_NOTES;
      break;
    case 6:
      f = F_SYMBOL;
      break;
    case 7:
      f = F_UNIT_ID;
      break;
    case 8:
      f = F_EVIDENCE;
      break;
    case 9:
      f = b[s] === 0x73 ? F_SIGNATURE : F_RELEVANCE;
      break;
    default:
      return -1;
  }
  return sameBytes(b, s, e, FIELD_BYTES[f]!) ? f : -1;
}

/**
 * The captured keys by their first four bytes (all are at least four long), through a perfect
 * hash of that word into 16 slots: a key is recognised from two unaligned word reads and its
 * closing quote, without scanning it as a string. Any other key takes the general path.
 */
const KEY_HASH = (w: number) => Math.imul(w, 47) >>> 28;
const KEY_HEAD = new Int32Array(16);
const KEY_TAIL = new Int32Array(16);
const KEY_MIDDLE = new Uint8Array(16);
const KEY_LENGTH = new Uint8Array(16);
const KEY_FIELD = new Int8Array(16).fill(-1);
FIELD_BYTES.forEach((k, f) => {
  const slot = KEY_HASH(k.readInt32LE(0));
  if (KEY_LENGTH[slot] !== 0) throw new Error("json-scan: two keys share a slot");
  KEY_HEAD[slot] = k.readInt32LE(0);
  KEY_TAIL[slot] = k.readInt32LE(k.length - 4);
  KEY_MIDDLE[slot] = k[4] ?? 0;
  KEY_LENGTH[slot] = k.length;
  KEY_FIELD[slot] = f;
});

/** The captured field whose key (without escapes) starts at ks and is closed by its quote, or -1 (then scan the key). */
function knownKey(b: Uint8Array, ks: number, n: number): number {
  if (ks + 12 > n) return -1;
  const head = DV.getInt32(WORD_BASE + ks, true);
  const slot = KEY_HASH(head);
  const len = KEY_LENGTH[slot]!;
  if (len === 0 || KEY_HEAD[slot] !== head || b[ks + len] !== 0x22 || DV.getInt32(WORD_BASE + ks + len - 4, true) !== KEY_TAIL[slot]) return -1;
  // Two words cover keys of up to eight bytes; the ninth byte of a longer one is checked alone.
  if (len > 8 && b[ks + 4] !== KEY_MIDDLE[slot]) return -1;
  return KEY_FIELD[slot]!;
}

const FINDINGS = Buffer.from("findings", "latin1");

function isFindingsKey(b: Buffer, s: number, e: number, flags: number): boolean {
  if (flags !== 0) return (JSON.parse(utf8(b, s - 1, e + 1)) as string) === "findings";
  return sameBytes(b, s, e, FINDINGS);
}

/** One element at i of an array `depth` containers deep; fills spans; returns the index after it or -1. */
function readElement(b: Buffer, i: number, n: number, spans: FindingSpans, depth: number): number {
  const c = b[i]!;
  if (c !== 0x7b) {
    spans.elementType = typeOfFirstByte(c);
    return skipIn(b, i, n, MAX_NESTING - depth);
  }
  if (depth >= MAX_NESTING) return -1;
  const room = MAX_NESTING - depth - 1;
  spans.elementType = T_OBJECT;
  const type = spans.type;
  type.fill(T_MISSING);
  i = ws(b, i + 1, n);
  if (i >= n) return -1;
  if (b[i] === 0x7d) return i + 1;
  for (;;) {
    if (b[i] !== 0x22) return -1;
    const ks = i + 1;
    let field = knownKey(b, ks, n);
    let ke: number;
    if (field >= 0) {
      ke = ks + FIELD_LENGTH[field]!;
    } else {
      ke = scanString(b, ks, n);
      if (ke < 0) return -1;
      field = fieldOfKey(b, ks, ke, strFlags);
    }
    i = afterKey(b, ke, n);
    if (i < 0) return -1;
    if (field < 0) {
      i = skipIn(b, i, n, room);
      if (i < 0) return -1;
    } else if (b[i] === 0x22) {
      const e = scanString(b, i + 1, n);
      if (e < 0) return -1;
      type[field] = T_STRING;
      spans.start[field] = i + 1;
      spans.end[field] = e;
      spans.flags[field] = strFlags;
      i = e + 1;
    } else {
      // Numbers directly (every finding has a relevance); containers and literals through skipIn.
      const c = b[i]!;
      const e = c === 0x2d || isDigit(c) ? scanNumber(b, i, n) : skipIn(b, i, n, room);
      if (e < 0) return -1;
      type[field] = typeOfFirstByte(c);
      spans.start[field] = i;
      spans.end[field] = e;
      spans.flags[field] = 0;
      i = e;
    }
    i = ws(b, i, n);
    if (i >= n) return -1;
    if (b[i] === 0x2c) {
      i = ws(b, i + 1, n);
      if (i >= n) return -1;
      continue;
    }
    if (b[i] === 0x7d) return i + 1;
    return -1;
  }
}

/**
 * The array at i (b[i] is `[`, `depth` containers deep counting itself), each element
 * emitted when `onElement` is given. Returns the index after the array or -1;
 * `counter.emitted` counts emitted elements.
 */
function readArray(b: Buffer, i: number, n: number, spans: FindingSpans, onElement: ElementHandler | null, counter: { emitted: number }, depth: number): number {
  i = ws(b, i + 1, n);
  if (i >= n) return -1;
  if (b[i] === 0x5d) return i + 1;
  for (;;) {
    i = readElement(b, i, n, spans, depth);
    if (i < 0) return -1;
    if (onElement) {
      counter.emitted++;
      onElement(spans);
      attach(b); // the callback may have scanned another buffer
    }
    i = ws(b, i, n);
    if (i >= n) return -1;
    if (b[i] === 0x2c) {
      i = ws(b, i + 1, n);
      if (i >= n) return -1;
      continue;
    }
    if (b[i] === 0x5d) return i + 1;
    return -1;
  }
}

/**
 * Scans bytes [0, n) of a seat file. The findings array is the whole document (`[...]`) or
 * the last `findings` member of the top-level object; its elements go to `onElement`.
 */
export function scanSeatFile(b: Buffer, n: number, spans: FindingSpans, onElement: ElementHandler): ScanOutcome {
  spans.buf = b;
  attach(b);
  let i = ws(b, 0, n);
  if (i >= n) return ScanOutcome.FAILED;
  const first = b[i]!;
  if (first !== 0x5b && first !== 0x7b) return ScanOutcome.FAILED; // a scalar is never a seat
  let last = n - 1;
  while (last > i && WS[b[last]!] === 1) last--;
  if (b[last] !== (first === 0x5b ? 0x5d : 0x7d)) return ScanOutcome.FAILED; // torn or trailing garbage
  const counter = { emitted: 0 };
  const fail = () => (counter.emitted > 0 ? ScanOutcome.RESTART : ScanOutcome.FAILED);

  if (first === 0x5b) {
    i = readArray(b, i, n, spans, onElement, counter, 1);
    if (i < 0 || ws(b, i, n) !== n) return fail();
    return ScanOutcome.OK;
  }

  let findingsIsArray = false;
  let emittedBeforeLast = false;
  i = ws(b, i + 1, n);
  if (i >= n) return fail();
  if (b[i] !== 0x7d) {
    for (;;) {
      if (b[i] !== 0x22) return fail();
      const ks = i + 1;
      const ke = scanString(b, ks, n);
      if (ke < 0) return fail();
      const isFindings = isFindingsKey(b, ks, ke, strFlags);
      i = afterKey(b, ke, n);
      if (i < 0) return fail();
      if (isFindings) {
        if (counter.emitted > 0) emittedBeforeLast = true;
        findingsIsArray = b[i] === 0x5b;
        i = findingsIsArray ? readArray(b, i, n, spans, onElement, counter, 2) : skipIn(b, i, n, MAX_NESTING - 1);
      } else {
        i = skipIn(b, i, n, MAX_NESTING - 1);
      }
      if (i < 0) return fail();
      i = ws(b, i, n);
      if (i >= n) return fail();
      if (b[i] === 0x2c) {
        i = ws(b, i + 1, n);
        if (i >= n) return fail();
        continue;
      }
      if (b[i] === 0x7d) {
        i++;
        break;
      }
      return fail();
    }
  } else {
    i++;
  }
  if (ws(b, i, n) !== n) return fail();
  if (emittedBeforeLast) return ScanOutcome.RESTART;
  if (!findingsIsArray) return fail();
  return ScanOutcome.OK;
}

/** The JS value of a captured field, exactly as JSON.parse of the whole file would give it. */
export function spanValue(spans: FindingSpans, field: number): unknown {
  const b = spans.buf;
  const s = spans.start[field]!;
  const e = spans.end[field]!;
  switch (spans.type[field]) {
    case T_MISSING:
      return undefined;
    case T_STRING:
      return spans.flags[field] === 0 ? latin1(b, s, e) : (JSON.parse(utf8(b, s - 1, e + 1)) as string);
    case T_NUMBER:
      return Number(latin1(b, s, e));
    case T_TRUE:
      return true;
    case T_FALSE:
      return false;
    case T_NULL:
      return null;
    default:
      return JSON.parse(utf8(b, s, e)) as unknown;
  }
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/**
 * The value of a JSON number span. Plain decimals with at most 15 significant digits are
 * computed as integer / 10^k, which is exact (both operands are exact doubles and the
 * division rounds correctly); anything else goes through Number(), JSON.parse's own
 * conversion.
 */
export function numberValue(b: Buffer, s: number, e: number): number {
  let i = s;
  const negative = b[i] === 0x2d;
  if (negative) i++;
  let mantissa = 0;
  let digits = 0;
  let fraction = -1;
  for (; i < e; i++) {
    const c = b[i]!;
    if (c === 0x2e) {
      fraction = 0;
      continue;
    }
    if (c < 0x30 || c > 0x39) return Number(latin1(b, s, e)); // exponent
    if (mantissa !== 0 || c !== 0x30) digits++;
    mantissa = mantissa * 10 + (c - 0x30);
    if (fraction >= 0) fraction++;
  }
  if (digits > 15 || fraction > 22) return Number(latin1(b, s, e));
  const v = fraction > 0 ? mantissa / POW10[fraction]! : mantissa;
  return negative ? -v : v;
}
