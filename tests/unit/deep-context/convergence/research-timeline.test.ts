import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildResearchTimeline } from "../../../../lib/deep-context/convergence/research-timeline";
import { eventsByRun, parseResearchStateLog } from "../../../../lib/deep-context/convergence/sibling-log";
import { FIXTURE_SPEC } from "./graph-builder";

const log = parseResearchStateLog(readFileSync(path.join(FIXTURE_SPEC, "research", "deep-research-state.jsonl"), "utf8"));
const t = buildResearchTimeline(log);
const at = (run: number) => t.entries.find((e) => e.run === run)!;

describe("deep-research timeline on the fixture", () => {
  it("parses 17 iterations and reads thresholds from the config line", () => {
    expect(log.warnings).toEqual([]);
    expect(t.entries.map((e) => e.run)).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));
    expect(t.settings).toEqual({ convergenceThreshold: 0.05, noProgressThreshold: 0.05, stuckThreshold: 3 });
  });

  it("computes the rolling average over the last 3 evidence iterations from run 3 on", () => {
    expect([at(1).rollingAvg, at(2).rollingAvg]).toEqual([null, null]);
    expect(at(3).rollingAvg).toBeCloseTo((0.722 + 0.563 + 0.438) / 3, 10);
    expect(at(15).rollingAvg).toBeCloseTo((0.429 + 0.063 + 0.071) / 3, 10);
    expect(t.entries.every((e) => e.rollingStop !== true)).toBe(true);
  });

  it("computes the MAD noise floor from run 4 on and votes STOP at runs 14 and 15", () => {
    expect(at(3).mad).toBeNull();
    expect(at(4).mad).toBeCloseTo(0.067, 10);
    expect(at(4).noiseFloor).toBeCloseTo(0.067 * 1.4826, 10);
    expect(t.entries.filter((e) => e.madStop).map((e) => e.run)).toEqual([14, 15]);
  });

  it("accumulates key-question coverage (22 questions, all answered)", () => {
    expect([at(1).answeredQuestions, at(1).totalQuestions]).toEqual([6, 6]);
    expect([at(17).answeredQuestions, at(17).totalQuestions, at(17).questionCoverage]).toEqual([22, 22, 1]);
    expect(t.entries.every((e) => e.entropyStop === true)).toBe(true);
  });

  it("normalizes the stop score over active signals; a STOP candidate when > 0.60", () => {
    expect(at(1).stopScore).toBe(1);
    expect(at(3).stopScore).toBeCloseTo(0.35 / 0.65, 10);
    expect(at(4).stopScore).toBeCloseTo(0.35, 10);
    expect(at(14).stopScore).toBeCloseTo(0.7, 10);
    expect(t.entries.filter((e) => e.stopCandidate).map((e) => e.run)).toEqual([1, 2, 14, 15]);
    expect(t.firstStopCandidateRun).toBe(1);
  });

  it("attaches events to runs (executor_fallback to 16 and 17) and reads the recorded stop", () => {
    expect(at(1).events).toEqual(["executor_audit"]);
    expect(at(16).events).toEqual(["executor_fallback", "executor_audit"]);
    expect(at(17).events).toEqual(["executor_fallback", "executor_audit", "loop_stopped"]);
    expect(t.unattachedEvents).toEqual(["synthesis_complete"]);
    expect(t.recorded).toEqual({ stopReason: "converged", run: 17, totalIterations: 17, answeredCount: 24, totalQuestions: 24 });
  });
});

describe("deep-research timeline rules", () => {
  const text = (iters: object[]) => iters.map((i, n) => JSON.stringify({ type: "iteration", run: n + 1, ...i })).join("\n");

  it("excludes thought iterations from the ratios and counts stuck iterations back to an insight", () => {
    const t2 = buildResearchTimeline(
      parseResearchStateLog(
        text([
          { status: "complete", newInfoRatio: 0.5 },
          { status: "insight", newInfoRatio: 0.01 },
          { status: "complete", newInfoRatio: 0.02 },
          { status: "thought", newInfoRatio: 0.9 },
          { status: "stuck", newInfoRatio: 0.4 },
          { status: "complete", newInfoRatio: 0.03 },
        ]),
      ),
      { convergenceThreshold: 0.1, stuckThreshold: 3 },
    );
    const last = t2.entries[5]!;
    expect(last.evidence).toBe(true);
    expect(t2.entries[3]!.evidence).toBe(false);
    expect(last.rollingAvg).toBeCloseTo((0.02 + 0.4 + 0.03) / 3, 10);
    expect(last.stuckCount).toBe(3);
    expect(last.stuck).toBe(true);
    expect(last.questionCoverage).toBeNull();
    // rolling .15 ≥ .1 → CONTINUE; ratios .5 .01 .02 .4 .03 → median .03, MAD .02, floor .02965 < .03 → CONTINUE
    expect(last.madStop).toBe(false);
    expect(last.stopScore).toBe(0);
  });

  it("votes MAD STOP when the latest ratio sits inside the noise floor", () => {
    const t3 = buildResearchTimeline(parseResearchStateLog(text([{ newInfoRatio: 0.5 }, { newInfoRatio: 0.1 }, { newInfoRatio: 0.3 }, { newInfoRatio: 0.05 }])));
    const e = t3.entries[3]!;
    // ratios .5 .1 .3 .05 → median .2, deviations .3 .1 .1 .15 → MAD .125, floor .185; latest .05 ≤ .185
    expect(e.mad).toBeCloseTo(0.125, 10);
    expect(e.madStop).toBe(true);
    expect(e.rollingStop).toBe(false);
    expect(e.stopScore).toBeCloseTo(0.35 / 0.65, 10);
    expect(e.stopCandidate).toBe(false);
  });
});

describe("events of one run, many times over", () => {
  it("are grouped in linear time (each event copied the run's list again)", () => {
    const events = Array.from({ length: 200_000 }, () => ({ type: "event" as const, event: "seat_dispatch", run: 1 }));
    const t0 = performance.now();
    const { byRun } = eventsByRun(events);
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(byRun.get(1)).toHaveLength(200_000);
  });
});
