import { describe, expect, it } from "vitest";
import { PyFloat, canonicalJson, compareCodePoints, formatPyFloat, pyJsonDumps, sha256Hex } from "../../../lib/memory/canonical-json";
import { PyJsonSyntaxError, parsePyJson } from "../../../lib/memory/py-json";

// Expected strings are what CPython 3.11 prints for
// json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).
describe("canonicalJson (Python json.dumps byte for byte)", () => {
  it("sorts keys at every level and leaves no spaces", () => {
    expect(canonicalJson({ b: 1, a: [1, 2, { d: null, c: true }], é: "ü" })).toBe('{"a":[1,2,{"c":true,"d":null}],"b":1,"é":"ü"}');
  });

  it("sorts keys by code point, not UTF-16 unit (U+FF5E before U+1F600)", () => {
    expect(canonicalJson({ "\uff5e": 1, "\u{1F600}": 2, a: 3, Z: 4, "": 5 })).toBe('{"":5,"Z":4,"a":3,"～":1,"😀":2}');
    expect(compareCodePoints("\uff5e", "\u{1F600}")).toBe(-1);
    expect("\uff5e" < "\u{1F600}").toBe(false); // why the plain JS order is wrong
  });

  it("formats ints and floats as Python does", () => {
    const doc = parsePyJson('{"int":1,"float":1.0,"neg0":-0.0,"big":12345678901234567890,"e16":1e16,"e15":1e15,"small":1e-05,"tenth":0.1,"third":0.3333333333333333,"e21":1e21,"m":-2.5}');
    expect(canonicalJson(doc)).toBe('{"big":12345678901234567890,"e15":1000000000000000.0,"e16":1e+16,"e21":1e+21,"float":1.0,"int":1,"m":-2.5,"neg0":-0.0,"small":1e-05,"tenth":0.1,"third":0.3333333333333333}');
  });

  it("treats an integral JS number as a Python int and a PyFloat as a float", () => {
    expect(canonicalJson([1, new PyFloat(1), -0, new PyFloat(-0), 1e21, 2 ** 53 + 2])).toBe("[1,1.0,0,-0.0,1000000000000000000000,9007199254740994]");
    expect(canonicalJson(12345678901234567890n)).toBe("12345678901234567890");
  });

  it("escapes only quote, backslash and C0 controls (ensure_ascii=False)", () => {
    expect(canonicalJson({ s: 'quote" back\\ nl\n tab\t bell\x07 del\x7f ls\u2028 emoji\u{1F600} nul\x00' })).toBe('{"s":"quote\\" back\\\\ nl\\n tab\\t bell\\u0007 del\x7f ls\u2028 emoji😀 nul\\u0000"}');
  });

  it("writes empty containers compactly", () => {
    expect([canonicalJson([]), canonicalJson({}), canonicalJson([{}])]).toEqual(["[]", "{}", "[{}]"]);
  });

  it("refuses NaN, Infinity and values JSON cannot hold", () => {
    expect(() => canonicalJson({ a: NaN })).toThrow(/not JSON compliant/);
    expect(() => canonicalJson([Infinity])).toThrow(/not JSON compliant/);
    expect(() => canonicalJson(new PyFloat(-Infinity))).toThrow(/not JSON compliant/);
    expect(() => canonicalJson({ a: undefined })).toThrow(/not JSON serializable/);
    expect(() => canonicalJson(new Date(0))).toThrow(/not JSON serializable/);
  });

  it("hashes the UTF-8 bytes and refuses lone surrogates as Python's encoder does", () => {
    expect(sha256Hex(canonicalJson({ operation: "add", target_ref: null, summary: "x", evidence_refs: ["a"] }))).toBe("d54ca01c7300ad72d58503dd620d2bc4250f3d74418beee64e610a365c4f3055");
    expect(() => sha256Hex("\ud800")).toThrow(/lone surrogate/);
  });

  it("formats floats with repr's thresholds", () => {
    expect([1e16, 1e15, 1e-5, 1e-4, 0.1, 5e-324, 1.5e300, 123456789.125, -0].map(formatPyFloat)).toEqual(["1e+16", "1000000000000000.0", "1e-05", "0.0001", "0.1", "5e-324", "1.5e+300", "123456789.125", "-0.0"]);
  });

  it("pretty-prints as json.dumps(indent=2, sort_keys=True)", () => {
    expect(pyJsonDumps({ b: [], a: { y: [1, new PyFloat(2)], x: {} } }, { indent: 2, sortKeys: true })).toBe('{\n  "a": {\n    "x": {},\n    "y": [\n      1,\n      2.0\n    ]\n  },\n  "b": []\n}');
  });
});

describe("parsePyJson (Python json.load semantics)", () => {
  it("rejects duplicate keys, a BOM and trailing data, naming line and column", () => {
    expect(() => parsePyJson('{"a": 1,\n "a": 2}')).toThrow(/duplicate JSON key: a at line 2, column 2/);
    expect(() => parsePyJson("\ufeff{}")).toThrow(/BOM/);
    expect(() => parsePyJson("{} x")).toThrow(/Extra data/);
    try {
      parsePyJson('{\n  "a": tru\n}');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(PyJsonSyntaxError);
      expect((e as PyJsonSyntaxError).pythonMessage).toBe("Expecting value: line 2 column 8 (char 9)");
    }
  });

  it("keeps a __proto__ key as data", () => {
    const v = parsePyJson('{"__proto__": {"x": 1}}') as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(["__proto__"]);
    expect(canonicalJson(v)).toBe('{"__proto__":{"x":1}}');
  });

  it("accepts NaN and Infinity as Python does (validators refuse them later)", () => {
    const v = parsePyJson("[NaN, -Infinity]") as PyFloat[];
    expect(Number.isNaN(v[0]!.value)).toBe(true);
    expect(v[1]!.value).toBe(-Infinity);
  });
});
