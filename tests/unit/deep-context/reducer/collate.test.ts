import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COLLATE_UNKNOWN, compareBytes, compareBytesPlain, primaryKey } from "../../../../lib/deep-context/reducer/collate";

const ascii = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 24 });
const bytes = (s: string) => Buffer.from(s, "latin1");
const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);

describe("byte collation", () => {
  it("orders printable ASCII exactly as localeCompare does (root collation)", () => {
    fc.assert(
      fc.property(ascii, ascii, (a, b) => {
        const want = sign(a.localeCompare(b, "en-US"));
        const got = compareBytes(bytes(a), 0, a.length, bytes(b), 0, b.length);
        if (got !== COLLATE_UNKNOWN) expect(got).toBe(want);
        expect(compareBytesPlain(bytes(a), 0, a.length, bytes(b), 0, b.length)).toBe(want);
      }),
      { numRuns: 5000 },
    );
  });

  it("primaryKey: texts sharing a prefix whose keys past it differ are ordered as their keys", () => {
    const short = fc.string({ unit: fc.constantFrom(..."aAbB-_. 1Z~"), maxLength: 9 });
    fc.assert(
      fc.property(ascii, short, short, (prefix, x, y) => {
        const a = bytes(prefix + x);
        const b = bytes(prefix + y);
        const ka = primaryKey(a, 0, a.length, prefix.length);
        const kb = primaryKey(b, 0, b.length, prefix.length);
        if (ka !== kb) expect(sign(ka - kb)).toBe(sign((prefix + x).localeCompare(prefix + y, "en-US")));
      }),
      { numRuns: 5000 },
    );
  });

  it("agrees on the cases that usually differ from code-point order", () => {
    const words = ["a", "A", "b", "B", "_a", "-a", "a-b", "ab", "a_b", "a.b", "a1", "a10", "a2", "Z", "z", " a", "a b", "getUser", "get_user", "GetUser"];
    for (const a of words) for (const b of words) expect(compareBytesPlain(bytes(a), 0, a.length, bytes(b), 0, b.length), `${a} vs ${b}`).toBe(sign(a.localeCompare(b, "en-US")));
  });

  it("defers to localeCompare for bytes outside its tables", () => {
    const a = bytes("caf\u00e9");
    const b = bytes("cafe");
    expect(compareBytes(a, 0, a.length, b, 0, b.length)).toBe(COLLATE_UNKNOWN);
  });
});
