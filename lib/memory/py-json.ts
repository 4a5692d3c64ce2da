/**
 * A JSON parser that reads a file the way the harness's Python `json.load` does, keeping what
 * `JSON.parse` loses:
 * - a float literal with an integral value (`3.0`, `1e3`, `-0.0`) becomes a {@link PyFloat}, so a
 *   limit written `3.0` is refused as "not an integer" and a signed override with
 *   `"observed_value": 5.0` hashes as `5.0`, exactly as in Python;
 * - integers beyond 2^53 become `bigint`, so they hash exactly;
 * - a duplicate key is an error (the harness loads with a duplicate-rejecting hook) instead of
 *   the last one silently winning;
 * - `NaN`, `Infinity` and `-Infinity` are accepted as Python accepts them; the validators then
 *   refuse them with a field-level message;
 * - a leading byte order mark is an error, as in Python.
 * Errors name the line and column (1-based) of the fault.
 */
import { PyFloat, type PyJson } from "./canonical-json";

export class PyJsonSyntaxError extends Error {
  constructor(
    /** The fault alone, e.g. "Expecting value". */
    readonly reason: string,
    readonly line: number,
    readonly column: number,
    /** Offset in code points, as Python counts `char`. */
    readonly char: number,
  ) {
    super(`${reason} at line ${line}, column ${column}`);
    this.name = "PyJsonSyntaxError";
  }

  /** The message in Python's `json.JSONDecodeError` wording. */
  get pythonMessage(): string {
    return this.reason.startsWith("duplicate JSON key: ") ? this.reason : `${this.reason}: line ${this.line} column ${this.column} (char ${this.char})`;
  }
}

/** Sets a key without invoking the `__proto__` setter, so `{"__proto__": 1}` is an ordinary key. */
function setKey(obj: Record<string, PyJson>, key: string, value: PyJson): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const WS = /[ \t\n\r]*/y;

export function parsePyJson(text: string): PyJson {
  let pos = 0;

  const fail = (message: string, at = pos): never => {
    const before = text.slice(0, at);
    const line = before.split("\n").length;
    const lineStart = before.lastIndexOf("\n") + 1;
    // Python counts code points, JS strings count UTF-16 units.
    const cps = (t: string) => [...t].length;
    throw new PyJsonSyntaxError(message, line, cps(before.slice(lineStart)) + 1, cps(before));
  };

  const skipWs = () => {
    WS.lastIndex = pos;
    WS.exec(text);
    pos = WS.lastIndex;
  };

  const parseString = (): string => {
    // pos is at the opening quote
    let out = "";
    let i = pos + 1;
    let start = i;
    for (;;) {
      if (i >= text.length) fail("Unterminated string starting at", pos);
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(start, i);
        pos = i + 1;
        return out;
      }
      if (c < 0x20) fail("Invalid control character at", i);
      if (c === 0x5c) {
        out += text.slice(start, i);
        const e = text[i + 1];
        switch (e) {
          case '"':
            out += '"';
            break;
          case "\\":
            out += "\\";
            break;
          case "/":
            out += "/";
            break;
          case "b":
            out += "\b";
            break;
          case "f":
            out += "\f";
            break;
          case "n":
            out += "\n";
            break;
          case "r":
            out += "\r";
            break;
          case "t":
            out += "\t";
            break;
          case "u": {
            const hex = text.slice(i + 2, i + 6);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("Invalid \\uXXXX escape", i);
            out += String.fromCharCode(parseInt(hex, 16));
            i += 4;
            break;
          }
          default:
            fail("Invalid \\escape", i);
        }
        i += 2;
        start = i;
        continue;
      }
      i++;
    }
  };

  const parseValue = (depth: number): PyJson => {
    if (depth > 1000) fail("Nesting too deep");
    skipWs();
    const c = text[pos];
    if (c === "{") {
      pos++;
      const obj: Record<string, PyJson> = {};
      const seen = new Set<string>();
      skipWs();
      if (text[pos] === "}") {
        pos++;
        return obj;
      }
      for (;;) {
        skipWs();
        if (text[pos] !== '"') fail("Expecting property name enclosed in double quotes");
        const keyAt = pos;
        const key = parseString();
        if (seen.has(key)) fail(`duplicate JSON key: ${key}`, keyAt);
        seen.add(key);
        skipWs();
        if (text[pos] !== ":") fail("Expecting ':' delimiter");
        pos++;
        setKey(obj, key, parseValue(depth + 1));
        skipWs();
        if (text[pos] === ",") {
          pos++;
          continue;
        }
        if (text[pos] === "}") {
          pos++;
          return obj;
        }
        fail("Expecting ',' delimiter");
      }
    }
    if (c === "[") {
      pos++;
      const arr: PyJson[] = [];
      skipWs();
      if (text[pos] === "]") {
        pos++;
        return arr;
      }
      for (;;) {
        arr.push(parseValue(depth + 1));
        skipWs();
        if (text[pos] === ",") {
          pos++;
          continue;
        }
        if (text[pos] === "]") {
          pos++;
          return arr;
        }
        fail("Expecting ',' delimiter");
      }
    }
    if (c === '"') return parseString();
    if (text.startsWith("null", pos)) {
      pos += 4;
      return null;
    }
    if (text.startsWith("true", pos)) {
      pos += 4;
      return true;
    }
    if (text.startsWith("false", pos)) {
      pos += 5;
      return false;
    }
    // Python's json accepts these constants by default; the validators refuse them later.
    if (text.startsWith("NaN", pos)) {
      pos += 3;
      return new PyFloat(NaN);
    }
    if (text.startsWith("Infinity", pos)) {
      pos += 8;
      return new PyFloat(Infinity);
    }
    if (text.startsWith("-Infinity", pos)) {
      pos += 9;
      return new PyFloat(-Infinity);
    }
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (m) {
      pos = NUMBER.lastIndex;
      const literal = m[0];
      if (m[1] === undefined && m[2] === undefined) {
        const n = Number(literal);
        if (Number.isSafeInteger(n)) return n === 0 ? 0 : n; // "-0" is the int 0 in Python
        return BigInt(literal);
      }
      const f = Number(literal);
      // A non-integral float is unambiguous as a JS number; an integral one needs the marker.
      return Number.isInteger(f) || Object.is(f, -0) || !Number.isFinite(f) ? new PyFloat(f) : f;
    }
    return fail("Expecting value");
  };

  if (text.charCodeAt(0) === 0xfeff) fail("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0);
  const value = parseValue(0);
  skipWs();
  if (pos < text.length) fail("Extra data");
  return value;
}

/** UTF-8 bytes to text, refusing invalid sequences (Python's strict decoder does). */
export function decodeUtf8Strict(bytes: Uint8Array): string {
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
}
