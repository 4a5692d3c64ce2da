import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256HexInto, sha256HexOfBytes, sha256HexOfText } from "../../../lib/core/sha256-js";

const native = (b: Uint8Array | string) => crypto.createHash("sha256").update(b).digest("hex");

/** Deterministic bytes (mulberry32). */
function bytes(n: number, seed: number): Uint8Array {
  let a = seed >>> 0;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    out[i] = (t ^ (t >>> 14)) & 0xff;
  }
  return out;
}

describe("sha256-js", () => {
  it("gives crypto's digest for every length across the one- and two-block paddings and beyond", () => {
    for (let n = 0; n <= 300; n++) {
      const b = bytes(n, n + 1);
      expect(sha256HexOfBytes(b), `length ${n}`).toBe(native(b));
    }
    const big = bytes(70_000, 7);
    expect(sha256HexOfBytes(big)).toBe(native(big));
  });

  it("hashes a range in place and writes the hex digits where asked, touching nothing else", () => {
    const src = bytes(500, 3);
    const out = new Uint8Array(100).fill(0x2a);
    sha256HexInto(src, 37, 121, out, 10);
    expect(Buffer.from(out.subarray(10, 74)).toString("latin1")).toBe(native(src.subarray(37, 158)));
    expect([...out.subarray(0, 10), ...out.subarray(74)].every((x) => x === 0x2a)).toBe(true);
  });

  it("hashes text as UTF-8, a lone surrogate as U+FFFD, like crypto", () => {
    for (const s of ["", "abc", "src/a.ts:load:reuse_candidate", "héllo wörld ✓ 𝄞", "lone \ud800 surrogate", "x".repeat(1000)]) {
      expect(sha256HexOfText(s)).toBe(native(s));
    }
  });
});
