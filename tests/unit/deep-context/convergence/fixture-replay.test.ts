import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { replayHostLoop } from "../../../../lib/deep-context/convergence/replay";
import { parseContextStateLog } from "../../../../lib/deep-context/convergence/state-log";
import { FIXTURE_SPEC } from "./graph-builder";

const log = parseContextStateLog(readFileSync(path.join(FIXTURE_SPEC, "context", "deep-context-state.jsonl"), "utf8"));
const r = replayHostLoop(log);

describe("fixture replay: sqlite-to-turso deep-context run", () => {
  it("parses the whole log without warnings", () => {
    expect(log.warnings).toEqual([]);
    expect(log.config?.maxIterations).toBe(10);
    expect(log.iterations).toHaveLength(10);
    expect(log.events.filter((e) => e.event === "graph_convergence")).toHaveLength(10);
  });

  it("uses the log's own config: 10 iterations, threshold 0.05, stuckThreshold 2, K 2", () => {
    expect(r.config).toEqual({ maxIterations: 10, convergenceThreshold: 0.05, stuckThreshold: 2, minIterations: 2, emptySweepLimit: 3 });
  });

  it("explains each of the 10 iterations", () => {
    expect(r.entries.map((e) => e.run)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(r.entries.map((e) => e.decision)).toEqual(["CONTINUE", "CONTINUE", "CONTINUE", "BLOCKED", "BLOCKED", "STUCK_RECOVERY", "CONTINUE", "CONTINUE", "CONTINUE", "STOP"]);
    expect(r.entries.map((e) => e.reason)).toEqual(["notSaturated", "notSaturated", "notSaturated", "blockedStop", "blockedStop", "stuckRecovery", "notSaturated", "notSaturated", "notSaturated", "maxIterationsReached"]);
    expect(r.entries.every((e) => e.graphDecision === "STOP_BLOCKED")).toBe(true);
  });

  it("tracks new_ratio, saturation streak and stuck count as the workflow does", () => {
    expect(r.entries.map((e) => Math.round(e.newRatio * 1000) / 1000)).toEqual([0.167, 0.143, 0.042, 0, 0, 0.042, 0.125, 0.2, 0, 0.517]);
    expect(r.entries.slice(0, 5).map((e) => e.lowProgressStreak)).toEqual([0, 0, 1, 2, 3]);
    expect(r.entries.map((e) => e.saturated)).toEqual([false, false, false, true, true, false, false, false, false, false]);
    expect(r.entries.map((e) => e.stuckCount)).toEqual([0, 0, 0, 0, 1, 2, 0, 0, 0, 1]);
  });

  it("matches the recorded blocked_stop events at runs 4 and 5 with the low-agreement recovery", () => {
    for (const run of [4, 5]) {
      const e = r.entries[run - 1]!;
      expect(e.events).toContain("blocked_stop");
      expect(e.expectedEvents).toEqual(["blocked_stop"]);
      expect(e.blockers).toEqual([{ type: "low_cross_executor_agreement" }]);
      expect(e.recoveryStrategy).toBe("Re-sweep low-agreement findings so more executors confirm them");
    }
  });

  it("ends at run 10 with maxIterationsReached, last graph decision STOP_BLOCKED and its blocker, as recorded", () => {
    expect([r.stopReason, r.stoppedAtRun]).toEqual(["maxIterationsReached", 10]);
    expect(r.finalGraphDecision).toBe("STOP_BLOCKED");
    expect(r.finalBlockers).toEqual([{ type: "low_cross_executor_agreement" }]);
    expect(r.finalSignals).toMatchObject({ agreementRate: 0.24305555555555555, score: 0.811 });
    expect(r.recorded).toEqual({ stopReason: "maxIterationsReached", run: 10, openBlockers: ["low_cross_executor_agreement"] });
    expect(r.matchesRecord).toBe(true);
    expect(r.entries[9]!.signals).toMatchObject({ sliceCoverage: 1, agreementRate: 0.24305555555555555 });
  });

  it("names the one place the real host skipped a rule: no stuckRecovery event at run 6", () => {
    expect(r.divergences).toEqual(["the rules append stuckRecovery at run 6; the log has none"]);
    expect(r.entries[5]!.events).toEqual(["sweep_settled", "graph_convergence"]);
  });

  it("keeps partial recorded signals (run 3 logs only the score)", () => {
    expect(r.entries[2]!.signals).toEqual({ score: 0.786 });
  });
});
