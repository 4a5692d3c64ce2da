import { describe, expect, it } from "vitest";
import { computeContextSignals, computeSignalBreakdown, nodeAgreement, uncoveredSlices } from "../../../../lib/deep-context/convergence/signals";
import { G } from "./graph-builder";

describe("context signals: vacuous and empty cases", () => {
  it("returns null signals for an empty graph", () => {
    expect(computeContextSignals({ nodes: [], edges: [], origin: "derived" })).toBeNull();
    expect(computeSignalBreakdown({ nodes: [], edges: [], origin: "derived" }, "stored")).toBeNull();
  });

  it("gives 1.0 for every signal whose denominator kind is absent", () => {
    const g = new G().node("f", "FILE").build();
    expect(computeContextSignals(g)).toEqual({ sliceCoverage: 1, reuseCatalogCoverage: 1, agreementRate: 1, relevanceFloor: 1, dependencyCompleteness: 1 });
    const b = computeSignalBreakdown(g)!;
    expect(Object.values(b).every((e) => e.vacuous && e.denominator === 0)).toBe(true);
  });

  it("treats no relevance-gated findings as a vacuous agreementRate (documented) but not in the stored variant", () => {
    const g = new G().node("p", "PATTERN", { relevance: 0.2, confirmations: 1 }).build();
    expect(computeContextSignals(g, "documented")!.agreementRate).toBe(1);
    expect(computeContextSignals(g, "stored")!.agreementRate).toBe(0);
    expect(computeContextSignals(g)!.relevanceFloor).toBe(0);
  });
});

describe("sliceCoverage", () => {
  it("counts SLICE nodes that are the SOURCE of a COVERED_BY edge", () => {
    const g = new G()
      .node("s1", "SLICE")
      .node("s2", "SLICE")
      .node("s3", "SLICE")
      .node("r", "REUSE_CANDIDATE", { relevance: 1, confirmations: 2 })
      .edge("s1", "COVERED_BY", "r")
      .edge("r", "COVERED_BY", "s2") // s2 is only a target: not covered
      .build();
    expect(computeContextSignals(g)!.sliceCoverage).toBeCloseTo(1 / 3, 10);
    expect(uncoveredSlices(g).map((n) => n.id)).toEqual(["s2", "s3"]);
  });
});

describe("reuseCatalogCoverage", () => {
  it("counts reuse candidates with agreement ≥ 1 (metadata or CONFIRMS in-edge) or verified === true", () => {
    const g = new G()
      .node("a", "REUSE_CANDIDATE", { confirmations: 1 })
      .node("b", "REUSE_CANDIDATE", {})
      .node("c", "REUSE_CANDIDATE", { verified: true })
      .node("d", "REUSE_CANDIDATE", { verified: "yes" })
      .node("sym", "SYMBOL")
      .edge("sym", "CONFIRMS", "b")
      .build();
    const b = computeSignalBreakdown(g)!.reuseCatalogCoverage;
    expect([b.numerator, b.denominator]).toEqual([3, 4]);
    expect(b.value).toBe(0.75);
  });
});

describe("agreement(node)", () => {
  it("is the max of metadata.confirmations and CONFIRMS in-edges; non-finite confirmations count as 0", () => {
    const g = new G()
      .node("x", "REUSE_CANDIDATE", { confirmations: 1 })
      .node("y", "REUSE_CANDIDATE", { confirmations: Number.NaN })
      .node("s1", "SYMBOL")
      .node("s2", "SYMBOL")
      .node("s3", "SYMBOL")
      .edge("s1", "CONFIRMS", "x")
      .edge("s2", "CONFIRMS", "x")
      .edge("s3", "CONFIRMS", "x")
      .build();
    const counts = new Map([["x", 3]]);
    expect(nodeAgreement(g.nodes[0]!, counts)).toBe(3);
    expect(nodeAgreement(g.nodes[1]!, counts)).toBe(0);
    expect(nodeAgreement({ id: "z", kind: "PATTERN", label: "z", metadata: { confirmations: 4 } }, counts)).toBe(4);
  });
});

describe("agreementRate: documented vs stored variant", () => {
  // Four findings: two gated (relevance ≥ 0.55), one of them confirmed by 2; two below the gate, one confirmed by 3.
  const g = new G()
    .node("r1", "REUSE_CANDIDATE", { relevance: 0.9, confirmations: 2 })
    .node("p1", "PATTERN", { relevance: 0.55, confirmations: 1 })
    .node("c1", "CONSTRAINT", { relevance: 0.54, confirmations: 3 })
    .node("r2", "REUSE_CANDIDATE", { relevance: 0.1, confirmations: 1 })
    .node("d", "DEPENDENCY", { relevance: 1, confirmations: 5 }) // not a finding kind
    .build();

  it("documented: gated findings with agreement ≥ 2 / gated findings", () => {
    const b = computeSignalBreakdown(g, "documented")!.agreementRate;
    expect([b.numerator, b.denominator, b.value]).toEqual([1, 2, 0.5]);
  });

  it("stored: findings with agreement ≥ 2 / all finding nodes", () => {
    const b = computeSignalBreakdown(g, "stored")!.agreementRate;
    expect([b.numerator, b.denominator, b.value]).toEqual([2, 4, 0.5]);
    const g2 = new G().node("a", "PATTERN", { relevance: 0.9, confirmations: 2 }).node("b", "PATTERN", { relevance: 0.1 }).build();
    expect(computeContextSignals(g2, "stored")!.agreementRate).toBe(0.5);
    expect(computeContextSignals(g2, "documented")!.agreementRate).toBe(1);
  });
});

describe("relevanceFloor", () => {
  it("is findings with relevance ≥ 0.55 over all findings; missing or non-numeric relevance is 0", () => {
    const g = new G()
      .node("a", "REUSE_CANDIDATE", { relevance: 0.55 })
      .node("b", "PATTERN", { relevance: 0.5499 })
      .node("c", "CONSTRAINT", {})
      .node("d", "CONSTRAINT", { relevance: "0.8" })
      .node("gap", "GAP", { relevance: 0 })
      .build();
    const b = computeSignalBreakdown(g)!.relevanceFloor;
    expect([b.numerator, b.denominator]).toEqual([2, 4]);
  });
});

describe("dependencyCompleteness: documented vs stored variant", () => {
  const g = new G()
    .node("dep1", "DEPENDENCY")
    .node("dep2", "DEPENDENCY")
    .node("dep3", "DEPENDENCY")
    .node("sym", "SYMBOL")
    .node("f", "FILE")
    .edge("sym", "DEPENDS_ON", "dep1") // dep1 is a target
    .edge("dep2", "DEPENDS_ON", "sym") // dep2 is a source of DEPENDS_ON
    .edge("dep3", "IMPORTS", "f") // dep3 is a source of IMPORTS
    .build();

  it("documented: DEPENDENCY that is the TARGET of DEPENDS_ON (IMPORTS excluded)", () => {
    expect(computeContextSignals(g, "documented")!.dependencyCompleteness).toBeCloseTo(1 / 3, 10);
  });

  it("stored: DEPENDENCY that is the SOURCE of DEPENDS_ON or IMPORTS", () => {
    expect(computeContextSignals(g, "stored")!.dependencyCompleteness).toBeCloseTo(2 / 3, 10);
  });

  it("only the two variant-specific signals differ", () => {
    const d = computeContextSignals(g, "documented")!;
    const s = computeContextSignals(g, "stored")!;
    expect(d.sliceCoverage).toBe(s.sliceCoverage);
    expect(d.reuseCatalogCoverage).toBe(s.reuseCatalogCoverage);
    expect(d.relevanceFloor).toBe(s.relevanceFloor);
  });
});
