/**
 * Canonical JSON exactly as the agent-collab harness writes it in Python:
 * `json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)`.
 *
 * Signatures (HMAC over a record) and hashes (policy_hash, affected_action_hash) are taken over
 * these bytes, so one differing character makes a human approval signed by the Python host fail
 * here. The differences from `JSON.stringify` that matter:
 * - keys sort by Unicode code point (Python `str` order), not by UTF-16 code unit;
 * - Python keeps ints and floats apart: `1` is `1` but `1.0` is `1.0`, `1e16` is `1e+16`, and a
 *   float prints with `repr` rules. A JS number cannot say which it was, so an integral JS number
 *   is an int here; wrap a float with an integral value in {@link PyFloat} (the lossless parser in
 *   `py-json.ts` does that for float literals in a file);
 * - integers print exactly however large (`bigint` is accepted), never as `1e+21`;
 * - only `"`, `\` and C0 controls are escaped (`\u00XX` lowercase), everything else stays as is;
 * - NaN and ±Infinity throw (allow_nan=False), as do values JSON cannot hold.
 */
import crypto from "node:crypto";

/** A Python float whose value is integral (`1.0`, `-0.0`, `1e16`): prints as Python prints a float. */
export class PyFloat {
  constructor(readonly value: number) {}
  valueOf(): number {
    return this.value;
  }
  toJSON(): number {
    return this.value;
  }
}

/** A value the canonical encoder accepts: JSON values plus bigint ints and {@link PyFloat}. */
export type PyJson = null | boolean | string | number | bigint | PyFloat | PyJson[] | { [key: string]: PyJson };

/** The numeric value of a number-like JSON value (int, float, PyFloat or bigint). */
export function numValue(v: number | bigint | PyFloat): number {
  return v instanceof PyFloat ? v.value : Number(v);
}

/** True when Python would hold this value as an `int` (not a float, not a bool). */
export function isPyInt(v: unknown): v is number | bigint {
  return typeof v === "bigint" || (typeof v === "number" && Number.isInteger(v));
}

/** True for a Python int or float (bools excluded, as the harness excludes them). */
export function isPyNumber(v: unknown): v is number | bigint | PyFloat {
  return typeof v === "number" || typeof v === "bigint" || v instanceof PyFloat;
}

/** Python `repr(float)`: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function formatPyFloat(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (n === Infinity) return "Infinity";
  if (n === -Infinity) return "-Infinity";
  if (n === 0) return Object.is(n, -0) ? "-0.0" : "0.0";
  const sign = n < 0 ? "-" : "";
  // toExponential() without an argument gives the shortest digits that round-trip, the same
  // digits Python's repr chooses (both pick the closest candidate).
  const m = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(Math.abs(n).toExponential());
  if (!m) throw new Error(`cannot format float ${n}`);
  const digits = m[1]! + (m[2] ?? "");
  const exp = Number(m[3]);
  const decpt = exp + 1; // position of the decimal point relative to the digit string
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) return `${sign}0.${"0".repeat(-decpt)}${digits}`;
    if (decpt >= digits.length) return `${sign}${digits}${"0".repeat(decpt - digits.length)}.0`;
    return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  }
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const e = Math.abs(exp);
  return `${sign}${mantissa}e${exp < 0 ? "-" : "+"}${e < 10 ? `0${e}` : e}`;
}

/** Python `str()` of an int or float: what the harness prints inside reason strings. */
export function pyNumberStr(v: number | bigint | PyFloat): string {
  if (v instanceof PyFloat) return formatPyFloat(v.value);
  if (typeof v === "bigint") return v.toString();
  if (Number.isInteger(v)) return BigInt(v).toString();
  return formatPyFloat(v);
}

function encodeNumber(v: number | bigint | PyFloat): string {
  const n = numValue(v);
  if (typeof v !== "bigint" && !Number.isFinite(n)) {
    throw new RangeError("Out of range float values are not JSON compliant");
  }
  return pyNumberStr(v);
}

/** Python's json string escaping with ensure_ascii=False. */
export function encodePyString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += "\\\\";
    else if (c < 0x20) {
      if (c === 0x0a) out += "\\n";
      else if (c === 0x0d) out += "\\r";
      else if (c === 0x09) out += "\\t";
      else if (c === 0x08) out += "\\b";
      else if (c === 0x0c) out += "\\f";
      else out += `\\u${c.toString(16).padStart(4, "0")}`;
    } else out += s[i];
  }
  return out + '"';
}

/** Compares two strings by Unicode code point, as Python orders `str` (JS `<` uses UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(j)!;
    if (ca !== cb) return ca < cb ? -1 : 1;
    i += ca > 0xffff ? 2 : 1;
    j += cb > 0xffff ? 2 : 1;
  }
  return a.length - i === 0 ? (b.length - j === 0 ? 0 : -1) : 1;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object") return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

interface DumpOptions {
  sortKeys: boolean;
  /** null: compact `,`/`:`; a number: newline + that many spaces per level, `, `/`: ` as Python does. */
  indent: number | null;
}

function dump(value: unknown, opts: DumpOptions, depth: number, seen: Set<object>): string {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "string") return encodePyString(value);
  if (typeof value === "number" || typeof value === "bigint" || value instanceof PyFloat) return encodeNumber(value);
  if (Array.isArray(value) || isPlainObject(value)) {
    if (seen.has(value)) throw new TypeError("Circular reference detected");
    seen.add(value);
    const nl = opts.indent === null ? "" : "\n" + " ".repeat(opts.indent * (depth + 1));
    const close = opts.indent === null ? "" : "\n" + " ".repeat(opts.indent * depth);
    const itemSep = opts.indent === null ? "," : ",";
    const keySep = opts.indent === null ? ":" : ": ";
    let out: string;
    if (Array.isArray(value)) {
      if (value.length === 0) out = "[]";
      else out = "[" + value.map((v) => nl + dump(v, opts, depth + 1, seen)).join(itemSep) + close + "]";
    } else {
      const keys = Object.keys(value);
      if (opts.sortKeys) keys.sort(compareCodePoints);
      if (keys.length === 0) out = "{}";
      else out = "{" + keys.map((k) => nl + encodePyString(k) + keySep + dump(value[k], opts, depth + 1, seen)).join(itemSep) + close + "}";
    }
    seen.delete(value);
    return out;
  }
  throw new TypeError(`Object of type ${value === undefined ? "undefined" : typeof value === "object" ? (value.constructor?.name ?? "object") : typeof value} is not JSON serializable`);
}

/** `json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)`. */
export function canonicalJson(value: unknown): string {
  return dump(value, { sortKeys: true, indent: null }, 0, new Set());
}

/**
 * `json.dumps(value, ensure_ascii=False, indent=N, sort_keys=...)`: the harness CLI prints its
 * results this way (indent=2, sort_keys=True), so `--json` output matches it byte for byte.
 */
export function pyJsonDumps(value: unknown, opts: { indent: number; sortKeys: boolean }): string {
  return dump(value, { sortKeys: opts.sortKeys, indent: opts.indent }, 0, new Set());
}

/**
 * UTF-8 bytes of a string, refusing lone surrogates: Python's `.encode("utf-8")` raises on them,
 * where Buffer.from would silently write U+FFFD and hash different bytes.
 */
export function utf8Strict(text: string): Buffer {
  if (!text.isWellFormed()) throw new RangeError("text contains a lone surrogate and cannot be encoded as UTF-8");
  return Buffer.from(text, "utf8");
}

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string | Uint8Array): string {
  return crypto
    .createHash("sha256")
    .update(typeof text === "string" ? utf8Strict(text) : text)
    .digest("hex");
}

/** SHA-256 of the canonical JSON of a value (the harness's `canonical_sha256`). */
export function canonicalSha256(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
