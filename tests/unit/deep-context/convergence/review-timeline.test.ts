import { describe, expect, it } from "vitest";
import { buildReviewTimeline, verdictOf } from "../../../../lib/deep-context/convergence/review-timeline";
import { parseReviewStateLog } from "../../../../lib/deep-context/convergence/sibling-log";

const lines = (recs: object[]) => recs.map((r) => JSON.stringify(r)).join("\n");
const it_ = (run: number, over: object) => ({ type: "iteration", run, mode: "review", status: "complete", ...over });

const log = parseReviewStateLog(
  lines([
    { type: "config", loopType: "review", maxIterations: 7 },
    it_(1, { dimensions: ["correctness", "security"], newFindingsRatio: 0.6, findingsSummary: { P0: 1, P1: 2, P2: 0 } }),
    it_(2, { dimensions: ["traceability"], newFindingsRatio: 0.3, findingsSummary: { P0: 0, P1: 1, P2: 3 } }),
    it_(3, { dimensions: ["maintainability"], newFindingsRatio: 0.05, findingsSummary: { P0: 0, P1: 0, P2: 3 } }),
    { type: "event", event: "blocked_stop", run: 3, blockedBy: ["dimensionCoverageGate"] },
    it_(4, { dimensions: ["security"], newFindingsRatio: 0.02 }),
    { type: "event", event: "synthesis_complete", stopReason: "converged", totalIterations: 4 },
  ]),
);
const t = buildReviewTimeline(log);

describe("deep-review timeline", () => {
  it("uses the four default dimensions and tracks coverage per iteration", () => {
    expect(t.settings).toEqual({ dimensions: ["correctness", "security", "traceability", "maintainability"], rollingStopThreshold: 0.08, minStabilizationPasses: 1 });
    expect(t.entries.map((e) => e.dimensionCoverage)).toEqual([0.5, 0.75, 1, 1]);
    expect(t.entries[1]!.missingDimensions).toEqual(["maintainability"]);
  });

  it("votes dimension STOP only after coverage held for minStabilizationPasses", () => {
    expect(t.entries.map((e) => e.coverageAge)).toEqual([null, null, 0, 1]);
    expect(t.entries.map((e) => e.dimensionStop)).toEqual([false, false, false, true]);
  });

  it("rolls the last 2 ratios against 0.08 and runs MAD from 3 ratios", () => {
    expect(t.entries[0]!.rollingAvg).toBeNull();
    expect(t.entries[1]!.rollingAvg).toBeCloseTo(0.45, 10);
    expect(t.entries[3]!.rollingAvg).toBeCloseTo(0.035, 10);
    expect(t.entries[3]!.rollingStop).toBe(true);
    expect(t.entries[1]!.mad).toBeNull();
    expect(t.entries[2]!.madStop).toBe(true); // ratios .6 .3 .05 → median .3, MAD .25, floor .37; .05 ≤ .37
  });

  it("weights rolling .30, MAD .25, dimensions .45 over active signals; candidate at ≥ 0.60", () => {
    expect(t.entries[0]!.stopScore).toBe(0); // only dimension coverage active, not stopping
    expect(t.entries[1]!.stopScore).toBe(0);
    expect(t.entries[2]!.stopScore).toBeCloseTo(0.25, 10); // MAD only
    expect(t.entries[3]!.stopScore).toBeCloseTo(1, 10);
    expect(t.firstStopCandidateRun).toBe(4);
  });

  it("derives the verdict from the latest findingsSummary and attaches events", () => {
    expect(t.entries.map((e) => e.verdict)).toEqual(["FAIL", "CONDITIONAL", "PASS", "PASS"]);
    expect(verdictOf(undefined)).toBeNull();
    expect(t.entries[2]!.events).toEqual(["blocked_stop"]);
    expect(t.recorded.stopReason).toBe("converged");
  });

  it("counts a two-signal 0.60 exactly as a STOP candidate (≥, per the review reference)", () => {
    const two = buildReviewTimeline(parseReviewStateLog(lines([it_(1, { dimensions: ["a"], newFindingsRatio: 0.5 }), it_(2, { dimensions: ["a"], newFindingsRatio: 0.5 })])), { dimensions: ["a"] });
    // run 2: rolling .5 (CONTINUE, w .30) + dimensions covered with age 1 (STOP, w .45) → .45/.75 = .6
    expect(two.entries[1]!.stopScore).toBeCloseTo(0.6, 10);
    expect(two.entries[1]!.stopCandidate).toBe(true);
  });
});
