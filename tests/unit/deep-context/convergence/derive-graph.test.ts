import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decideContext } from "../../../../lib/deep-context/convergence/decide";
import { deriveCoverageGraph, nodeKindForFinding } from "../../../../lib/deep-context/convergence/derive-graph";
import { mergeFindingsLite, unitIdOf, type DerivableUnit, type ProducedFinding } from "../../../../lib/deep-context/convergence/seat-merge-lite";
import { computeContextSignals } from "../../../../lib/deep-context/convergence/signals";
import { lruMemo } from "../../../../lib/deep-context/memo";

const unit = (over: Partial<DerivableUnit> & Pick<DerivableUnit, "unit_id" | "kind">): DerivableUnit => ({
  path: "src/a.ts",
  symbol: "fn",
  agreement: 1,
  relevance: 0.9,
  producedBy: ["seat-a"],
  firstIteration: 1,
  ...over,
});

describe("finding kind → node kind", () => {
  it("maps reuse_candidate, convention, integration_point, dependency, gap; unknown falls back to REUSE_CANDIDATE", () => {
    expect(["reuse_candidate", "convention", "integration_point", "dependency", "gap", "mystery"].map(nodeKindForFinding)).toEqual(["REUSE_CANDIDATE", "PATTERN", "CONSTRAINT", "DEPENDENCY", "GAP", "REUSE_CANDIDATE"]);
  });
});

describe("deriveCoverageGraph: units sharing files and runs", () => {
  it("makes each slice → file CONTAINS edge once, in the order units first bring the pair, and every unit its own COVERED_BY edges", () => {
    const g = deriveCoverageGraph({
      iterations: [
        { run: 1, focus: "S1" },
        { run: 2, slices: ["S2", "S1"] },
        { run: 3, focus: "S3" },
      ],
      units: [
        unit({ unit_id: "u1", kind: "gap", path: "a.ts", symbol: "x", iterations: [2] }),
        unit({ unit_id: "u2", kind: "gap", path: "b.ts", symbol: "y", iterations: [1, 3] }),
        unit({ unit_id: "u3", kind: "gap", path: "a.ts", symbol: "z", iterations: [1, 2, 3] }),
        unit({ unit_id: "u4", kind: "gap", path: "b.ts", symbol: "y2", iterations: [1, 3] }),
        unit({ unit_id: "u5", kind: "gap", path: "a.ts", symbol: "x", iterations: [2] }),
      ],
    });
    const pairs = (relation: string) => g.edges.filter((e) => e.relation === relation).map((e) => `${e.source} ${e.target}`);
    expect(pairs("CONTAINS")).toEqual(["slice:S2 file:a.ts", "slice:S1 file:a.ts", "slice:S1 file:b.ts", "slice:S3 file:b.ts", "slice:S3 file:a.ts"]);
    expect(pairs("COVERED_BY")).toEqual([
      "slice:S2 unit:u1",
      "slice:S1 unit:u1",
      "slice:S1 unit:u2",
      "slice:S3 unit:u2",
      "slice:S1 unit:u3",
      "slice:S2 unit:u3",
      "slice:S3 unit:u3",
      "slice:S1 unit:u4",
      "slice:S3 unit:u4",
      "slice:S2 unit:u5",
      "slice:S1 unit:u5",
    ]);
    expect(pairs("EXPOSES")).toEqual(["file:a.ts symbol:a.ts:x", "file:b.ts symbol:b.ts:y", "file:a.ts symbol:a.ts:z", "file:b.ts symbol:b.ts:y2"]);
    expect(new Set(g.edges.map((e) => e.id)).size).toBe(g.edges.length);
  });
});

describe("deriveCoverageGraph: the unit part kept between derivations", () => {
  const units = [unit({ unit_id: "u1", kind: "reuse_candidate", agreement: 2, producedBy: ["a", "b"], iterations: [1, 2] }), unit({ unit_id: "u2", kind: "dependency", path: "src/b.ts", symbol: "dep", iterations: [2] })];
  const first = [
    { run: 1, focus: "S1" },
    { run: 2, focus: "S2" },
  ];
  /** A cache whose memo counts the unit parts it had to derive. */
  const counting = () => {
    const memo = lruMemo(2);
    const cache = {
      derived: 0,
      memo: { get: <T>(slot: string, version: string | null, compute: () => T) => memo.get(slot, version, () => (cache.derived++, compute())) },
      slot: "packet",
      version: "seats-v1" as string | null,
    };
    return cache;
  };

  it("reuses it after an iteration without findings is added (the graph gains that slice node only)", () => {
    const cache = counting();
    const before = deriveCoverageGraph({ units, iterations: first }, cache);
    const later = [...first, { run: 3, focus: "S3" }];
    const after = deriveCoverageGraph({ units, iterations: later }, cache);
    expect(cache.derived).toBe(1);
    expect(after).toEqual(deriveCoverageGraph({ units, iterations: later }));
    expect(after.nodes.length).toBe(before.nodes.length + 1);
    expect(after.edges).toEqual(before.edges);
  });

  it("derives it again when the slices of a run the units were seen in change", () => {
    const cache = counting();
    deriveCoverageGraph({ units, iterations: first }, cache);
    const refocused = [
      { run: 1, focus: "S1" },
      { run: 2, slices: ["S2a", "S2b"] },
    ];
    const g = deriveCoverageGraph({ units, iterations: refocused }, cache);
    expect(cache.derived).toBe(2);
    expect(g).toEqual(deriveCoverageGraph({ units, iterations: refocused }));
    expect(g.edges.some((e) => e.source === "slice:S2b" && e.target === "unit:u2" && e.relation === "COVERED_BY")).toBe(true);
    expect(g.edges.some((e) => e.source === "slice:S2")).toBe(false);
  });

  it("derives it again for another agreementMin (NaN and Infinity apart) and for other units", () => {
    const cache = counting();
    deriveCoverageGraph({ units, iterations: first, agreementMin: 2 }, cache);
    const g = deriveCoverageGraph({ units, iterations: first, agreementMin: 3 }, cache);
    expect(g.edges.some((e) => e.relation === "CONFIRMS")).toBe(false);
    deriveCoverageGraph({ units, iterations: first, agreementMin: Number.NaN }, cache);
    const inf = deriveCoverageGraph({ units, iterations: first, agreementMin: Number.NEGATIVE_INFINITY }, cache);
    expect(inf.edges.some((e) => e.relation === "CONFIRMS")).toBe(true);
    expect(cache.derived).toBe(4);
    cache.version = "seats-v2";
    deriveCoverageGraph({ units, iterations: first, agreementMin: Number.NEGATIVE_INFINITY }, cache);
    cache.version = null;
    deriveCoverageGraph({ units, iterations: first, agreementMin: Number.NEGATIVE_INFINITY }, cache);
    expect(cache.derived).toBe(6);
  });
});

describe("deriveCoverageGraph", () => {
  const g = deriveCoverageGraph({
    iterations: [
      { run: 1, focus: "Slice 1: vectors" },
      { run: 2, focus: "Slice 2: fts" },
      { run: 3, slices: ["Slice 3a", "Slice 3b"] },
    ],
    units: [
      unit({ unit_id: "u1", kind: "reuse_candidate", agreement: 2, producedBy: ["a", "b"], iterations: [1, 2] }),
      unit({ unit_id: "u2", kind: "dependency", path: "src/b.ts", symbol: "dep", relevance: 0.4 }),
      unit({ unit_id: "u3", kind: "integration_point", symbol: "hook", firstIteration: 2 }),
      unit({ unit_id: "u4", kind: "convention", symbol: "", relevance: 0.6 }),
      unit({ unit_id: "u5", kind: "gap", symbol: "missing", firstIteration: 9, verified: true }),
    ],
  });
  const ids = new Set(g.nodes.map((n) => n.id));
  const has = (source: string, relation: string, target: string) => g.edges.some((e) => e.source === source && e.relation === relation && e.target === target);

  it("is marked derived and has SLICE, FILE, SYMBOL and finding nodes", () => {
    expect(g.origin).toBe("derived");
    expect(g.nodes.filter((n) => n.kind === "SLICE").map((n) => n.label)).toEqual(["Slice 1: vectors", "Slice 2: fts", "Slice 3a", "Slice 3b"]);
    expect(ids.has("file:src/a.ts") && ids.has("file:src/b.ts")).toBe(true);
    expect(ids.has("symbol:src/a.ts:fn") && ids.has("symbol:src/b.ts:dep") && ids.has("symbol:src/a.ts:hook")).toBe(true);
    expect(g.nodes.filter((n) => n.id.startsWith("unit:")).map((n) => n.kind)).toEqual(["REUSE_CANDIDATE", "DEPENDENCY", "CONSTRAINT", "PATTERN", "GAP"]);
  });

  it("stores agreement as metadata.confirmations and relevance/iteration in metadata", () => {
    const u1 = g.nodes.find((n) => n.id === "unit:u1")!;
    expect(u1.metadata).toMatchObject({ confirmations: 2, relevance: 0.9, iteration: 1, findingKind: "reuse_candidate", producedBy: ["a", "b"] });
    expect(g.nodes.find((n) => n.id === "unit:u5")!.metadata.verified).toBe(true);
    expect(g.nodes.find((n) => n.id === "unit:u2")!.metadata.verified).toBeUndefined();
  });

  it("links slices, files, symbols and findings with the documented relations and weights", () => {
    expect(has("slice:Slice 1: vectors", "COVERED_BY", "unit:u1")).toBe(true);
    expect(has("slice:Slice 2: fts", "COVERED_BY", "unit:u1")).toBe(true);
    expect(has("slice:Slice 2: fts", "COVERED_BY", "unit:u3")).toBe(true);
    expect(has("slice:Slice 1: vectors", "CONTAINS", "file:src/a.ts")).toBe(true);
    expect(has("file:src/a.ts", "EXPOSES", "symbol:src/a.ts:fn")).toBe(true);
    expect(has("symbol:src/b.ts:dep", "DEPENDS_ON", "unit:u2")).toBe(true);
    expect(has("symbol:src/a.ts:hook", "IMPLEMENTS", "unit:u3")).toBe(true);
    expect(has("symbol:src/a.ts:fn", "CONFIRMS", "unit:u1")).toBe(true);
    expect(g.edges.filter((e) => e.relation === "CONFIRMS")).toHaveLength(1); // only agreement ≥ 2
    expect(g.edges.find((e) => e.relation === "COVERED_BY")!.weight).toBe(1.1);
    expect(g.edges.find((e) => e.relation === "EXPOSES")!.weight).toBe(1.3);
    expect(g.edges.find((e) => e.relation === "DEPENDS_ON")!.weight).toBe(1.2);
    expect(g.edges.find((e) => e.relation === "IMPLEMENTS")!.weight).toBe(1.4);
  });

  it("never writes dangling edges or self-loops, and leaves a slice without findings uncovered", () => {
    expect(g.edges.every((e) => ids.has(e.source) && ids.has(e.target) && e.source !== e.target)).toBe(true);
    expect(g.edges.some((e) => e.source.startsWith("slice:Slice 3"))).toBe(false);
    expect(new Set(g.edges.map((e) => e.id)).size).toBe(g.edges.length);
  });

  it("feeds the signals: dependencies resolved (documented), slices 2/4, agreement over gated findings", () => {
    const s = computeContextSignals(g, "documented")!;
    expect(s.sliceCoverage).toBe(0.5);
    expect(s.dependencyCompleteness).toBe(1);
    expect(s.reuseCatalogCoverage).toBe(1);
    // findings: u1 (REUSE, .9, 2), u3 (CONSTRAINT, .9, 1), u4 (PATTERN, .6, 1) → 1/3 agreement; all gated
    expect(s.agreementRate).toBeCloseTo(1 / 3, 10);
    expect(s.relevanceFloor).toBe(1);
    expect(computeContextSignals(g, "stored")!.dependencyCompleteness).toBe(0);
    expect(decideContext(g).data.graphOrigin).toBe("derived");
  });

  it("derives only slices when there are no findings, and an empty graph from nothing", () => {
    const onlySlices = deriveCoverageGraph({ units: [], iterations: [{ run: 1, focus: "x" }] });
    expect(computeContextSignals(onlySlices)!.sliceCoverage).toBe(0);
    const empty = deriveCoverageGraph({ units: [] });
    expect(empty.nodes).toEqual([]);
    expect(decideContext(empty).data.decision).toBe("CONTINUE");
  });
});

describe("mergeFindingsLite", () => {
  const f = (over: Partial<ProducedFinding>): ProducedFinding => ({ path: "src/a.ts", symbol: "fn", kind: "reuse_candidate", relevance: 0.5, producers: ["a"], iteration: 1, ...over });

  it("keys units by sha256(path:symbol:kind) with whitespace normalized, an explicit unit_id winning", () => {
    const expected = createHash("sha256").update("src/a.ts:fn:reuse_candidate").digest("hex");
    expect(unitIdOf({ path: " src/a.ts ", symbol: "fn", kind: "reuse_candidate" })).toBe(expected);
    expect(unitIdOf({ path: "src/a.ts", symbol: "fn" })).toBe(expected);
    expect(unitIdOf({ unit_id: "explicit", path: "x" })).toBe("explicit");
  });

  it("unions producers (no double count), takes max relevance and min iteration, records iterations", () => {
    const { units } = mergeFindingsLite([
      f({ producers: ["a"], relevance: 0.4, iteration: 3 }),
      f({ producers: ["a", "b"], relevance: 0.9, iteration: 1 }),
      f({ producers: ["c"], iteration: 2, symbol: "fn  " }),
      f({ kind: "gap" }),
    ]);
    expect(units).toHaveLength(2);
    expect(units[0]).toMatchObject({ agreement: 3, producedBy: ["a", "b", "c"], relevance: 0.9, firstIteration: 1, iterations: [1, 2, 3] });
    expect(units[1]).toMatchObject({ kind: "gap", agreement: 1 });
  });

  it("reports signature/reuse contradictions between producers of the same unit", () => {
    const { contradictions } = mergeFindingsLite([
      f({ producers: ["a"], signature: "fn(x)", reuse: "extend" }),
      f({ producers: ["b"], signature: "fn(x, y)", reuse: "extend" }),
      f({ path: "other", producers: ["a"], signature: "one" }),
    ]);
    expect(contradictions).toHaveLength(1);
    expect(contradictions[0]).toMatchObject({ field: "signature", values: { a: "fn(x)", b: "fn(x, y)" } });
  });
});

describe("a log repeating one iteration many times", () => {
  it("derives the graph in linear time (each repeat copied the run's slices again)", () => {
    const iterations = Array.from({ length: 100_000 }, () => ({ run: 1, slices: ["auth", "session"] }));
    const t0 = performance.now();
    const g = deriveCoverageGraph({ units: [], iterations });
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(
      g.nodes
        .filter((n) => n.kind === "SLICE")
        .map((n) => n.label)
        .sort(),
    ).toEqual(["auth", "session"]);
  });
});
