import { describe, expect, it } from "vitest";
import { computeCompositeScore, scoreDelta, scoreDeltaNote, snapshotScore } from "../../../../lib/deep-context/convergence/score";

const all = (v: number) => ({ sliceCoverage: v, reuseCatalogCoverage: v, agreementRate: v, relevanceFloor: v, dependencyCompleteness: v });

describe("composite score", () => {
  it("weights reuse .30, agreement .25, slice .20, relevance .15, dependency .10", () => {
    expect(computeCompositeScore({ ...all(0), reuseCatalogCoverage: 1 })).toBe(0.3);
    expect(computeCompositeScore({ ...all(0), agreementRate: 1 })).toBe(0.25);
    expect(computeCompositeScore({ ...all(0), sliceCoverage: 1 })).toBe(0.2);
    expect(computeCompositeScore({ ...all(0), relevanceFloor: 1 })).toBe(0.15);
    expect(computeCompositeScore({ ...all(0), dependencyCompleteness: 1 })).toBe(0.1);
    expect(computeCompositeScore(all(1))).toBe(1);
  });

  it("reproduces the fixture's recorded scores from their signals (run 1: 0.795, run 5: 0.772)", () => {
    // run 1 logs agreementRate rounded to 0.182; the unrounded 2/11 gives the logged 0.795
    expect(computeCompositeScore({ sliceCoverage: 1, reuseCatalogCoverage: 1, agreementRate: 2 / 11, relevanceFloor: 1, dependencyCompleteness: 1 })).toBe(0.795);
    expect(computeCompositeScore({ sliceCoverage: 1, reuseCatalogCoverage: 1, agreementRate: 0.08974358974358974, relevanceFloor: 1, dependencyCompleteness: 1 })).toBe(0.772);
  });

  it("rounds to three decimals", () => {
    // .25 * 0.3333 = 0.083325 → 0.083
    expect(computeCompositeScore({ ...all(0), agreementRate: 0.3333 })).toBe(0.083);
    // .30 * 0.0055 = 0.00165 → 0.002
    expect(computeCompositeScore({ ...all(0), reuseCatalogCoverage: 0.0055 })).toBe(0.002);
  });

  it("clamps each input to [0,1] and treats non-finite values as 0", () => {
    expect(computeCompositeScore({ ...all(0), reuseCatalogCoverage: 5 })).toBe(0.3);
    expect(computeCompositeScore({ ...all(1), reuseCatalogCoverage: -3 })).toBe(0.7);
    expect(computeCompositeScore({ ...all(1), agreementRate: Number.NaN, sliceCoverage: Number.POSITIVE_INFINITY })).toBe(0.55);
    expect(computeCompositeScore({ reuseCatalogCoverage: 1 })).toBe(0.3);
  });

  it("is 0 without signals", () => {
    expect(computeCompositeScore(null)).toBe(0);
    expect(computeCompositeScore(undefined)).toBe(0);
  });
});

describe("scoreDelta", () => {
  it("is round3(score − prior) against a number, {score} or {metrics:{score}}", () => {
    expect(scoreDelta(0.811, 0.792)).toBe(0.019);
    expect(scoreDelta(0.5, { score: 0.6 })).toBe(-0.1);
    expect(scoreDelta(0.5, { metrics: { score: 0.25 } })).toBe(0.25);
  });

  it("is 0 (never -0) for equal scores and null without a usable prior", () => {
    expect(Object.is(scoreDelta(0.3, 0.3), 0)).toBe(true);
    expect(scoreDelta(0.3, null)).toBeNull();
    expect(scoreDelta(0.3, { metrics: { sliceCoverage: 1 } })).toBeNull();
    expect(scoreDelta(Number.NaN, 0.2)).toBeNull();
    expect(snapshotScore({ score: Number.NaN, metrics: { score: 0.4 } })).toBe(0.4);
  });

  it("notes whether a prior snapshot was compared", () => {
    expect(scoreDeltaNote(null, null)).toBe("no prior snapshot");
    expect(scoreDeltaNote({ metrics: {} }, null)).toBe("prior snapshot has no score");
    expect(scoreDeltaNote({ score: 1 }, 0.1)).toBe("prior snapshot compared");
  });
});
