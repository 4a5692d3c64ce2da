import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ProjectFs } from "../../../../lib/core/project-fs";
import { listSeatIterations } from "../../../../lib/deep-context/reducer/packet";
import { reduceContextState } from "../../../../lib/deep-context/reducer/reduce";
import { buildRegistry, detectContradictions } from "../../../../lib/deep-context/reducer/registry";
import { collectSeats, validateSeatFinding } from "../../../../lib/deep-context/reducer/seats";
import { UnitTable, fnvString, type Unit } from "../../../../lib/deep-context/reducer/units";

let root = "";
afterEach(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
  root = "";
});

function packet(seats: Record<string, Record<string, unknown>>): string {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "wb-seats-"));
  for (const [iter, files] of Object.entries(seats)) {
    for (const [name, body] of Object.entries(files)) {
      const f = path.join(root, "spec", "context", "seats", iter, name);
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, typeof body === "string" ? body : JSON.stringify(body));
    }
  }
  return path.join(root, "spec", "context", "seats");
}

/** The seat files of the packet under `root`, listed and collected through the file layer. */
function collected(): ReturnType<typeof collectSeats> {
  const pfs = ProjectFs.openSync(root);
  return collectSeats(pfs, listSeatIterations(pfs, { abs: path.join(root, "spec/context/seats"), rel: "spec/context/seats" }));
}

const F = (p: string, symbol: string, extra: Record<string, unknown> = {}) => ({ path: p, symbol, relevance: 0.8, ...extra });

describe("validateSeatFinding (FORMATS §1.4)", () => {
  it.each([
    [null, "finding is not an object"],
    ["text", "finding is not an object"],
    [0, "finding is not an object"],
    [{ path: "a", kind: "pattern" }, 'unknown kind "pattern"'],
    [{ path: "a", kind: " gap\n" }, null],
    [{ path: "a" }, null],
    [{ path: " ", symbol: "\t" }, "missing both path and symbol"],
    [[], "missing both path and symbol"],
    [{ symbol: "s", relevance: "high" }, "non-numeric relevance"],
    [{ symbol: "s", relevance: "0.4" }, null],
    [{ symbol: "s", relevance: null }, null],
    // eslint-disable-next-line no-loss-of-precision -- 1e999 is Infinity on purpose, as JSON.parse reads it
    [{ symbol: "s", relevance: 1e999 }, "non-numeric relevance"],
  ])("%j → %s", (raw, reason) => {
    expect(validateSeatFinding(raw)).toBe(reason);
  });
});

describe("collectSeats", () => {
  it("tags findings with the file's label and iteration; failed seats are listed, not merged", () => {
    packet({
      "iter-002": { "b.json": { findings: [F("src/a.ts", "a")] }, "b.raw.json": { stdout: "raw" }, "c.json": "{torn" },
      "iter-001": { "a.json": [F("src/a.ts", "a", { relevance: 0.3 }), { path: "", symbol: "" }], "z.txt": "ignored" },
    });
    const s = collected();
    expect(s.seatsByIteration).toEqual({ 1: { succeeded: ["a"], failed: [] }, 2: { succeeded: ["b"], failed: ["b.raw", "c"] } });
    expect([...s.allSeatLabels]).toEqual(["a", "b"]);
    expect(s.validationWarnings).toEqual([{ seat: "a", reason: "missing both path and symbol", symbol: "", path: "", iteration: 1 }]);
    expect(s.table.units).toHaveLength(1);
    const u = s.table.units[0]!;
    expect([u.producers, u.firstIteration, u.maxRelevance]).toEqual([["a", "b"], 1, 0.8]);
  });

  it("merges whitespace variants of path, symbol and kind into one unit", () => {
    packet({ "iter-001": { "a.json": [F(" src/a.ts", "fn  x", { kind: "gap" })], "b.json": [F("src/a.ts", "fn\tx ", { kind: "\ngap" })] } });
    const s = collected();
    expect(s.table.units.map((u) => [u.path, u.symbol, u.kind, u.agreement])).toEqual([["src/a.ts", "fn x", "gap", 2]]);
  });

  it("the byte scanner and the JSON.parse decoder agree on random packets", () => {
    let seed = 11;
    const rand = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
    for (let trial = 0; trial < 25; trial++) {
      const seats: Record<string, Record<string, unknown>> = {};
      for (let it = 1; it <= 3; it++) {
        const files: Record<string, unknown> = {};
        for (const label of ["a", "b", "10", "2", "c d"]) {
          const findings = Array.from({ length: 15 }, () => {
            const u = Math.floor(rand() * 12);
            return rand() < 0.05
              ? pick([null, 3, "x", [], [{}]])
              : {
                  path: pick([`src/${u}.ts`, ` src/${u}.ts`, `src/${u}.ts\u00a0`, u % 4 ? `src/${u}.ts` : ""]),
                  symbol: pick([`s${u % 3}`, `s${u % 3} `, `s ${u % 3}`, "é", ""]),
                  kind: pick(["gap", "reuse_candidate", " gap", "", undefined, "pattern", ["gap"]]),
                  // eslint-disable-next-line no-loss-of-precision -- 1e999 is Infinity on purpose
                  relevance: pick([0.1, 0.55, 0.9, "0.7", "x", null, undefined, true, 1e999]),
                  signature: pick([`f${u}()`, `f${u}( )`, "", undefined, 7]),
                  reuse: pick(["extend", "wrap", "", undefined]),
                  evidence: pick(["e", "", undefined]),
                  notes: pick(["n", "", "  ", undefined]),
                  ...(rand() < 0.05 ? { unit_id: pick([" id-1 ", "id-1", "", 5]) } : {}),
                };
          });
          // One trial in eight has a file the scanner must hand over to JSON.parse mid-way.
          files[`${label}.json`] = trial % 8 === 0 && label === "2" ? `${JSON.stringify(findings)}]` : rand() < 0.5 ? findings : { findings };
        }
        seats[`iter-00${it}`] = files;
      }
      packet(seats);
      const spec = path.join(root, "spec");
      fs.writeFileSync(path.join(root, "spec", "context", "deep-context-state.jsonl"), "");
      const scan = reduceContextState(spec, { write: false, decoder: "scan" });
      const parse = reduceContextState(spec, { write: false, decoder: "parse" });
      expect(scan.registryJson()).toBe(parse.registryJson());
      expect(scan.dashboard).toBe(parse.dashboard);
      expect(scan.usedParseFallback).toBe(trial % 8 === 0);
      fs.rmSync(root, { recursive: true, force: true });
      root = "";
    }
  });

  it("the byte scanner normalises whitespace and escapes in paths and symbols, and tells composites split at another colon apart, as JSON.parse does", () => {
    // JSON string bodies, escapes as written in the file.
    const paths = String.raw`a :b|a |a|a:| a :b|a  :b|a\t:b|src/x.ts|src/x.ts |src\n/x.ts|src/x.ts\u000b|src\u0020\u0020/x.ts|src\/x.ts|q\"x|b\\s|\u00a0src/x.ts|é|| |\u0041b`.split("|");
    const symbols = String.raw`b:c|c|:c| c|b :c|x\ty|x\r\n y|x\u0009||\f|\b|\u001f`.split("|");
    let n = 0;
    const seats: Record<string, Record<string, string>> = {};
    for (const label of ["a", "b"]) {
      const lines: string[] = [];
      for (const p of paths) for (const s of symbols) lines.push(`{"path": "${p}", "symbol": "${s}", "kind": "gap", "relevance": ${(n++ % 7) / 7}, "signature": "${label}${n % 3}"}`);
      seats[`iter-001`] = { ...seats["iter-001"], [`${label}.json`]: `[\n  ${lines.join(",\n  ")}\n]\n` };
    }
    packet(seats);
    const spec = path.join(root, "spec");
    fs.writeFileSync(path.join(root, "spec", "context", "deep-context-state.jsonl"), "");
    const scan = reduceContextState(spec, { write: false, decoder: "scan" });
    const parse = reduceContextState(spec, { write: false, decoder: "parse" });
    expect(scan.usedParseFallback).toBe(false);
    expect(scan.registryJson()).toBe(parse.registryJson());
    expect(scan.dashboard).toBe(parse.dashboard);
    // "a :b" + "c" and "a" + "b :c" spell the same composite; "a " + "b:c" normalises to "a" + "b:c", another one.
    const units = scan.registry().gaps.concat(scan.registry().lowConfidence);
    expect(units.filter((u) => `${u.path}:${u.symbol}` === "a:b:c")).toHaveLength(1);
    expect(units.filter((u) => `${u.path}:${u.symbol}` === "a :b:c")).toHaveLength(1);
  });
});

function unit(t: UnitTable, p: string, s: string, kindIndex: number, producers: [string, number, string, string][]): Unit {
  const kind = ["reuse_candidate", "integration_point", "convention", "dependency", "gap"][kindIndex]!;
  const c = `${p}:${s}:${kind}`;
  const u = t.createDerived(c, fnvString(c), p, s, kind, kindIndex, 1);
  for (const [producer, rel, sig, reuse] of producers) u.observe(producer, rel, 1, sig, reuse);
  return u;
}

describe("buildRegistry", () => {
  it("gates on the unrounded max relevance, buckets by kind and sorts by agreement, relevance, path, symbol", () => {
    const t = new UnitTable();
    unit(t, "src/b.ts", "x", 0, [["a", 0.6, "", ""]]);
    unit(t, "src/a.ts", "y", 0, [["a", 0.6, "", ""]]);
    unit(t, "src/a.ts", "x", 0, [["a", 0.6004, "", ""]]);
    unit(t, "src/z.ts", "z", 0, [
      ["a", 0.56, "", ""],
      ["b", 0.1, "", ""],
    ]);
    unit(t, "src/low.ts", "l", 4, [["a", 0.5499, "", ""]]);
    unit(t, "src/gap.ts", "g", 4, [["a", 0.55, "", ""]]);
    const r = buildRegistry(t.units, { relevanceGate: 0.55, agreementMin: 2 });
    expect(r.buckets.reuseCandidates.map((u) => `${u.path}:${u.symbol}`)).toEqual(["src/z.ts:z", "src/a.ts:x", "src/a.ts:y", "src/b.ts:x"]);
    expect(r.buckets.gaps.map((u) => u.path)).toEqual(["src/gap.ts"]);
    expect(r.lowConfidence.map((u) => [u.path, u.relevance])).toEqual([["src/low.ts", 0.55]]);
    expect(r.metrics).toMatchObject({ findings: 6, gatedFindings: 5, lowConfidenceFindings: 1, agreementEligible: 1, agreementRate: 0.2, relevanceFloor: 0.833, reuseCandidates: 4, gaps: 1 });
  });

  it("falls back to the defaults (0.55, 2) unless the config gives finite numbers", () => {
    expect(buildRegistry([], { relevanceGate: "0.9", agreementMin: NaN })).toMatchObject({ relevanceGate: 0.55, agreementMin: 2 });
    expect(buildRegistry([], { relevanceGate: 0.7, agreementMin: 1.5 })).toMatchObject({ relevanceGate: 0.7, agreementMin: 1.5, metrics: { agreementRate: 0, relevanceFloor: 0 } });
  });

  it("contradictions: two or more producers, more than one distinct non-empty value; values keyed like a plain object", () => {
    const t = new UnitTable();
    unit(t, "src/p.ts", "charge", 0, [
      ["b", 0.9, "charge(a)", "extend"],
      ["10", 0.9, "charge(a, c)", "extend"],
      ["2", 0.9, "", "wrap"],
      ["__proto__", 0.9, "proto()", "import"],
    ]);
    unit(t, "src/q.ts", "same", 0, [
      ["a", 0.9, "same()", ""],
      ["b", 0.9, "same()", ""],
    ]);
    unit(t, "src/solo.ts", "solo", 0, [["a", 0.9, "x", "y"]]);
    expect(detectContradictions(t.units)).toEqual([
      { unit_id: t.units[0]!.unitId, path: "src/p.ts", symbol: "charge", field: "signature", values: { 10: "charge(a, c)", b: "charge(a)" } },
      { unit_id: t.units[0]!.unitId, path: "src/p.ts", symbol: "charge", field: "reuse", values: { 2: "wrap", 10: "extend", b: "extend" } },
    ]);
    expect(Object.keys(detectContradictions(t.units)[1]!.values)).toEqual(["2", "10", "b"]);
  });
});
