import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { compareNumericNames, isFiniteNumber, normalizeText, round3, sha256Hex, toNumber, unitIdOf } from "../../../../lib/deep-context/text";
import { UnitTable, fnvString } from "../../../../lib/deep-context/reducer/units";
import { mulberry32 } from "../../../helpers/prng";

describe("normalizeText", () => {
  it("folds every whitespace run (\\s: tabs, newlines, NBSP, U+2028, U+3000, BOM) to one space and trims", () => {
    expect(normalizeText("  a \t\n b\u00a0\u2028c\u3000d\ufeff ")).toBe("a b c d");
    expect(normalizeText("fn(a,  b)")).toBe("fn(a, b)");
  });
  it("stringifies like String(): null/undefined are empty, numbers, booleans, arrays and objects print", () => {
    expect(normalizeText(null)).toBe("");
    expect(normalizeText(undefined)).toBe("");
    expect(normalizeText(0)).toBe("0");
    expect(normalizeText(1e21)).toBe("1e+21");
    expect(normalizeText(false)).toBe("false");
    expect(normalizeText(["a", "b"])).toBe("a,b");
    expect(normalizeText({})).toBe("[object Object]");
  });
  it("is idempotent", () => {
    const s = " x \n\n y ";
    expect(normalizeText(normalizeText(s))).toBe(normalizeText(s));
  });
  it("equals the reference's String(v).replace(/\\s+/g, ' ').trim() on 20,000 seeded strings of letters and whitespace", () => {
    // Texts that need no folding skip the replace: this checks that shortcut against the formula.
    const alphabet = ["a", "b", " ", " ", "  ", "\t", "\n", "\r", "\u00a0", "\u2028", "\u3000", "\ufeff", "\u200b", "é", "\ud83d\ude00"];
    const rand = mulberry32(7);
    for (let i = 0; i < 20_000; i++) {
      let s = "";
      const n = Math.floor(rand() * 12);
      for (let k = 0; k < n; k++) s += alphabet[Math.floor(rand() * alphabet.length)];
      expect(normalizeText(s), JSON.stringify(s)).toBe(s.replace(/\s+/g, " ").trim());
    }
  });
});

describe("numbers", () => {
  it("toNumber uses Number() and falls back when not finite", () => {
    expect(toNumber("0.7")).toBe(0.7);
    expect(toNumber(" 0.8\n")).toBe(0.8);
    expect(toNumber("")).toBe(0);
    expect(toNumber(null)).toBe(0);
    expect(toNumber(true)).toBe(1);
    expect(toNumber([0.75])).toBe(0.75);
    expect(toNumber("0x1")).toBe(1);
    expect(toNumber("high", 5)).toBe(5);
    expect(toNumber(Infinity, 3)).toBe(3);
    expect(toNumber(undefined)).toBe(0);
  });
  it("isFiniteNumber accepts only finite number values", () => {
    expect(isFiniteNumber(0.55)).toBe(true);
    expect(isFiniteNumber("0.55")).toBe(false);
    expect(isFiniteNumber(NaN)).toBe(false);
  });
  it("round3 rounds half up at the third decimal", () => {
    expect(round3(0.5555)).toBe(0.556);
    expect(round3(0.0005)).toBe(0.001);
    expect(round3(2 / 3)).toBe(0.667);
    expect(round3(-0.25)).toBe(-0.25);
  });
});

describe("unit ids", () => {
  it("are sha256 of normalised path:symbol:kind", () => {
    const expected = crypto.createHash("sha256").update("src/a.ts:fn name:gap").digest("hex");
    expect(unitIdOf(" src/a.ts", "fn \t name", "gap ")).toBe(expected);
    expect(sha256Hex("src/a.ts:fn name:gap")).toBe(expected);
  });
  it("collide for path/symbol pairs with the same composite text (as in the reference)", () => {
    expect(unitIdOf("a:b", "c", "gap")).toBe(unitIdOf("a", "b:c", "gap"));
  });
});

describe("compareNumericNames (the reference's directory order)", () => {
  it("orders numbers by value and otherwise by locale", () => {
    expect(["iter-10", "iter-2", "iter-001"].sort(compareNumericNames)).toEqual(["iter-001", "iter-2", "iter-10"]);
    expect(["x9.json", "x10.json", "x.json", "x-y.json"].sort(compareNumericNames)).toEqual(["x-y.json", "x.json", "x9.json", "x10.json"]);
  });
});

describe("UnitTable", () => {
  it("merges equal composites, keeps first-appearance order and hashes lazily", () => {
    const t = new UnitTable();
    const c1 = "src/a.ts:a:gap";
    const u1 = t.createDerived(c1, fnvString(c1), "src/a.ts", "a", "gap", 4, 3);
    expect(t.derived(c1)).toBe(u1);
    expect(t.derived("src/a.ts:b:gap")).toBeUndefined();
    expect(u1.unitId).toBe(sha256Hex(c1));
    expect(u1.firstIteration).toBe(3);
  });
  it("an explicit id equal to a derived hash is the same unit, in either order", () => {
    const t = new UnitTable();
    const c = "src/w.ts:derived:reuse_candidate";
    const derived = t.createDerived(c, fnvString(c), "src/w.ts", "derived", "reuse_candidate", 0, 1);
    expect(t.explicit(sha256Hex(c), "other", "x", "gap", 4, 1)).toBe(derived);
    const c2 = "src/later.ts:later:gap";
    const explicit = t.explicit(sha256Hex(c2), "src/new.ts", "later", "reuse_candidate", 0, 2);
    expect(t.createDerived(c2, fnvString(c2), "src/later.ts", "later", "gap", 4, 2)).toBe(explicit);
    expect(t.units).toHaveLength(2);
    // The first finding of a unit names it.
    expect(explicit.path).toBe("src/new.ts");
  });
  it("observe: distinct producers in first-seen order, last write per producer, max relevance, earliest finite iteration, first non-empty texts", () => {
    const t = new UnitTable();
    const u = t.createDerived("p:s:gap", fnvString("p:s:gap"), "p", "s", "gap", 4, 2);
    u.observe("b", 0.4, 2, "", "extend");
    u.observe("a", 0.9, 1, "sig-a", "");
    u.observe("b", 0.1, Infinity, "sig-b", "wrap");
    expect(u.producers).toEqual(["b", "a"]);
    expect(u.valuesOf(1)).toEqual(["sig-b", "sig-a"]);
    expect(u.valuesOf(2)).toEqual(["wrap", ""]);
    expect(u.maxRelevance).toBe(0.9);
    expect(u.firstIteration).toBe(1);
    expect(u.signature).toBe("sig-a");
    expect(u.reuse).toBe("extend");
    expect(u.agreement).toBe(2);
  });
  it("a non-finite iteration starts the unit at 0", () => {
    const t = new UnitTable();
    expect(t.createDerived("x:y:gap", 1, "x", "y", "gap", 4, Infinity).firstIteration).toBe(0);
  });
  it("fnvString of ASCII text equals FNV-1a over its bytes", () => {
    let h = 0x811c9dc5;
    for (const b of Buffer.from("src/a.ts:a:gap")) h = Math.imul(h ^ b, 0x01000193);
    expect(fnvString("src/a.ts:a:gap")).toBe(h);
  });
});
