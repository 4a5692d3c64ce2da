import { describe, expect, it } from "vitest";
import { DEFAULT_RECOVERY, recoveryStrategyFor, replayHostLoop, resolveReplayConfig } from "../../../../lib/deep-context/convergence/replay";
import { parseContextStateLog } from "../../../../lib/deep-context/convergence/state-log";

type Rec = Record<string, unknown>;
const config = (over: Rec = {}): Rec => ({ type: "config", loopType: "context", maxIterations: 10, convergenceThreshold: 0.1, ...over });
const iter = (run: number, findingsCount: number, newAgreementEligible: number, over: Rec = {}): Rec => ({
  type: "iteration",
  run,
  mode: "context",
  status: "evidence",
  focus: `Slice ${run}`,
  findingsCount,
  newAgreementEligible,
  agreementEligible: 0,
  ...over,
});
const graph = (run: number, decision: string, blockers: unknown[] = []): Rec => ({ type: "event", event: "graph_convergence", run, decision, signals: { agreementRate: 0.2, score: 0.7 }, blockers });
const ev = (event: string, run: number, over: Rec = {}): Rec => ({ type: "event", event, run, ...over });
const replay = (records: Rec[]) => replayHostLoop(parseContextStateLog(records.map((r) => JSON.stringify(r)).join("\n")));

describe("host loop: max iterations", () => {
  it("stops with maxIterationsReached at run = maxIterations, whatever the graph says", () => {
    const r = replay([config({ maxIterations: 2 }), iter(1, 10, 5), graph(1, "STOP_BLOCKED", ["low_relevance_focus"]), iter(2, 10, 5), graph(2, "CONTINUE")]);
    expect(r.entries.map((e) => e.decision)).toEqual(["CONTINUE", "STOP"]);
    expect(r.entries[1]!.reason).toBe("maxIterationsReached");
    expect(r.entries[1]!.continues).toBe(false);
    expect([r.stopReason, r.stoppedAtRun]).toEqual(["maxIterationsReached", 2]);
  });

  it("defaults maxIterations to 8 without config", () => {
    const recs: Rec[] = [];
    for (let i = 1; i <= 8; i++) recs.push(iter(i, 10, 5));
    const r = replay(recs);
    expect(r.config.maxIterations).toBe(8);
    expect(r.stoppedAtRun).toBe(8);
  });
});

describe("host loop: stuck detection", () => {
  it("counts sweeps with 0 new agreement-eligible and >0 findings, recovers at stuckThreshold and resets", () => {
    const r = replay([config({ convergenceThreshold: 0 }), iter(1, 10, 0), iter(2, 10, 0), iter(3, 10, 0), iter(4, 10, 0), iter(5, 10, 0)]);
    expect(r.entries.map((e) => [e.stuckCount, e.stuckCountAfter])).toEqual([
      [0, 1],
      [1, 2],
      [2, 1],
      [1, 2],
      [2, 1],
    ]);
    expect(r.entries.map((e) => e.decision)).toEqual(["CONTINUE", "CONTINUE", "STUCK_RECOVERY", "CONTINUE", "STUCK_RECOVERY"]);
    expect(r.entries[2]!.expectedEvents).toEqual(["stuckRecovery"]);
    expect(r.entries[2]!.nextFocus).toBe("RECOVERY: Widen the slice frontier");
    expect(r.entries[2]!.divergences).toEqual(["the rules append stuckRecovery at run 3; the log has none"]);
  });

  it("resets on a productive sweep and does not count empty merges", () => {
    const r = replay([config({ convergenceThreshold: 0 }), iter(1, 10, 0), iter(2, 10, 3), iter(3, 0, 0), iter(4, 10, 0)]);
    expect(r.entries.map((e) => e.stuckCountAfter)).toEqual([1, 0, 0, 1]);
    expect(r.entries.every((e) => e.decision === "CONTINUE")).toBe(true);
  });

  it("honours a configured stuckThreshold and a recorded stuckRecovery event", () => {
    const r = replay([config({ stuckThreshold: 1, convergenceThreshold: 0 }), iter(1, 5, 0), iter(2, 5, 0), ev("stuckRecovery", 2, { stopReason: "stuckRecovery" })]);
    expect(r.entries[1]!.decision).toBe("STUCK_RECOVERY");
    expect(r.entries[1]!.divergences).toEqual([]);
  });
});

describe("host loop: saturation and the combined stop rule", () => {
  it("needs new_ratio < convergenceThreshold for K=2 consecutive iterations", () => {
    const r = replay([config(), iter(1, 100, 5), graph(1, "STOP_ALLOWED"), iter(2, 100, 20), graph(2, "STOP_ALLOWED"), iter(3, 100, 9), graph(3, "STOP_ALLOWED")]);
    expect(r.entries.map((e) => e.newRatio)).toEqual([0.05, 0.2, 0.09]);
    expect(r.entries.map((e) => e.lowProgressStreak)).toEqual([1, 0, 1]);
    expect(r.entries.map((e) => e.saturated)).toEqual([false, false, false]);
    expect(r.entries.every((e) => e.reason === "notSaturated")).toBe(true);
    expect(r.stopReason).toBeNull();
  });

  it("uses max(1, findingsCount) as the denominator and antiConvergence.minIterations as K", () => {
    const r = replay([config({ antiConvergence: { minIterations: 3 } }), iter(1, 0, 0), iter(2, 0, 0), iter(3, 0, 0)]);
    expect(r.config.minIterations).toBe(3);
    expect(r.entries.map((e) => e.newRatio)).toEqual([0, 0, 0]);
    expect(r.entries.map((e) => e.saturated)).toEqual([false, false, true]);
  });

  it("STOPs as converged when saturated and the graph allows STOP", () => {
    const r = replay([config(), iter(1, 50, 2), graph(1, "STOP_ALLOWED"), iter(2, 50, 1), graph(2, "STOP_ALLOWED")]);
    expect(r.entries[1]).toMatchObject({ decision: "STOP", reason: "converged", saturated: true, graphDecision: "STOP_ALLOWED" });
    expect(r.stopReason).toBe("converged");
  });

  it("STOPs as converged when saturated and no graph decision was recorded", () => {
    const r = replay([config(), iter(1, 50, 0), iter(2, 50, 0)]);
    expect(r.entries[1]).toMatchObject({ decision: "STOP", reason: "converged", graphDecision: null });
    expect(r.entries[1]!.notes[0]).toContain("no graph_convergence event");
  });

  it("turns a saturated STOP candidate into a blocked_stop on STOP_BLOCKED, with a recovery focus per blocker type", () => {
    const r = replay([
      config(),
      iter(1, 50, 1),
      graph(1, "STOP_BLOCKED", ["uncovered_slices"]),
      iter(2, 50, 1),
      graph(2, "STOP_BLOCKED", [
        { type: "low_relevance_focus", severity: "blocking", count: 1 },
        { type: "context_contradictions", severity: "warning", count: 2 },
      ]),
      ev("blocked_stop", 2, { blockedBy: ["low_relevance_focus"], recoveryStrategy: "narrow" }),
    ]);
    const e = r.entries[1]!;
    expect(e).toMatchObject({ decision: "BLOCKED", reason: "blockedStop", continues: true, expectedEvents: ["blocked_stop"], divergences: [] });
    expect(e.blockers).toEqual([
      { type: "low_relevance_focus", severity: "blocking", count: 1 },
      { type: "context_contradictions", severity: "warning", count: 2 },
    ]);
    expect(e.recoveryStrategy).toBe("Narrow the focus to high-relevance anchors");
    expect(e.nextFocus).toBe("RECOVERY: Narrow the focus to high-relevance anchors");
    expect(r.stopReason).toBeNull();
  });

  it("names a recovery strategy for each blocker type", () => {
    expect(recoveryStrategyFor([{ type: "uncovered_slices" }])).toBe("Sweep the uncovered SLICE nodes (slices without a COVERED_BY edge)");
    expect(recoveryStrategyFor([{ type: "low_cross_executor_agreement" }])).toBe("Re-sweep low-agreement findings so more executors confirm them");
    expect(recoveryStrategyFor([{ type: "uncovered_slices" }, { type: "low_cross_executor_agreement" }])).toBe(
      "Sweep the uncovered SLICE nodes (slices without a COVERED_BY edge); Re-sweep low-agreement findings so more executors confirm them",
    );
    expect(recoveryStrategyFor([])).toBe(DEFAULT_RECOVERY);
    expect(recoveryStrategyFor([{ type: "context_contradictions", severity: "warning" }])).toBe("Sweep uncovered slices; raise agreement before stopping.");
  });

  it("downgrades a saturated STOP candidate to CONTINUE when the graph says CONTINUE", () => {
    const r = replay([config(), iter(1, 50, 0), graph(1, "CONTINUE"), iter(2, 50, 0), graph(2, "CONTINUE")]);
    expect(r.entries[1]).toMatchObject({ decision: "CONTINUE", reason: "graphContinue", saturated: true, continues: true });
    expect(r.entries[1]!.explanation).toContain("downgraded");
  });

  it("flags a recorded blocked_stop the rules do not call for", () => {
    const r = replay([config(), iter(1, 10, 9), graph(1, "STOP_BLOCKED", ["uncovered_slices"]), ev("blocked_stop", 1, { blockedBy: ["uncovered_slices"] })]);
    expect(r.entries[0]!.divergences).toEqual(["the log records blocked_stop at run 1; the rules do not call for one"]);
  });
});

describe("host loop: empty sweeps, pause, record comparison", () => {
  const failed = (run: number): Rec => ev("sweep_settled", run, { seatsSucceeded: [], seatsFailed: ["a", "b"] });
  const ok = (run: number): Rec => ev("sweep_settled", run, { seatsSucceeded: ["a"], seatsFailed: ["b"] });

  it("ends with stopReason error after 3 consecutive all-seats-failed sweeps", () => {
    const r = replay([config(), failed(1), iter(1, 0, 0, { status: "error", seatsSucceeded: 0 }), failed(2), failed(3), ev("synthesis_complete", 3, { stopReason: "error" })]);
    expect(r.entries.map((e) => [e.allSeatsFailed, e.emptySweepStreak])).toEqual([
      [true, 1],
      [true, 2],
      [true, 3],
    ]);
    expect(r.entries.slice(0, 2).map((e) => [e.decision, e.reason])).toEqual([
      ["CONTINUE", "emptySweep"],
      ["CONTINUE", "emptySweep"],
    ]);
    expect(r.entries[2]).toMatchObject({ decision: "STOP", reason: "error" });
    expect([r.stopReason, r.stoppedAtRun, r.matchesRecord]).toEqual(["error", 3, true]);
  });

  it("resets the empty-sweep streak when a seat succeeds", () => {
    const r = replay([config(), failed(1), failed(2), ok(3), iter(3, 10, 5), failed(4), failed(5)]);
    expect(r.entries.map((e) => e.emptySweepStreak)).toEqual([1, 2, 0, 1, 2]);
    expect(r.stopReason).toBeNull();
  });

  it("stops with userPaused at the paused run", () => {
    const r = replay([config(), iter(1, 10, 5), ev("userPaused", 2, { stopReason: "userPaused" })]);
    expect(r.entries[1]).toMatchObject({ run: 2, decision: "STOP", reason: "userPaused" });
  });

  it("reports when the log records a different stop than the rules", () => {
    const r = replay([config({ maxIterations: 3 }), iter(1, 10, 0), graph(1, "STOP_ALLOWED"), iter(2, 10, 0), graph(2, "STOP_ALLOWED"), iter(3, 10, 0), ev("loop_stopped", 3, { stopReason: "maxIterationsReached" })]);
    expect([r.stopReason, r.stoppedAtRun]).toEqual(["converged", 2]);
    expect(r.matchesRecord).toBe(false);
    expect(r.entries[2]!.afterStop).toBe(true);
    expect(r.divergences).toContain("the log records stopReason maxIterationsReached; the rules give converged");
  });
});

describe("replay config and state-log parsing", () => {
  it("prefers deep-context-config.json over the JSONL config line, then defaults", () => {
    const log = parseContextStateLog(JSON.stringify(config({ maxIterations: 4, convergenceThreshold: 0.2 })));
    expect(resolveReplayConfig(log, { maxIterations: 6, stuckThreshold: 3 })).toEqual({ maxIterations: 6, convergenceThreshold: 0.2, stuckThreshold: 3, minIterations: 2, emptySweepLimit: 3 });
    expect(resolveReplayConfig(parseContextStateLog(""))).toEqual({ maxIterations: 8, convergenceThreshold: 0.1, stuckThreshold: 2, minIterations: 2, emptySweepLimit: 3 });
  });

  it("keeps good records, warns on broken lines, skips progress records, accepts digit-string runs", () => {
    const text = [
      JSON.stringify(config()),
      "{not json",
      JSON.stringify({ type: "progress", run: 1 }),
      JSON.stringify({ type: "event", event: "progress_record" }),
      JSON.stringify(iter(1, 3, 1, { run: "1" })),
      JSON.stringify({ type: "iteration", focus: "no run" }),
      JSON.stringify({ type: "mystery" }),
      JSON.stringify(graph(1, "MAYBE")),
    ].join("\n");
    const log = parseContextStateLog(text);
    expect(log.config?.maxIterations).toBe(10);
    expect(log.iterations.map((i) => i.run)).toEqual([1]);
    expect(log.events).toEqual([]);
    expect(log.warnings.map((w) => w.line)).toEqual([2, 6, 7, 8]);
    expect(log.warnings[3]!.error).toContain("decision");
  });
});

describe("host loop: a log of hundreds of thousands of events", () => {
  it("replays in linear time (events of one run were copied once per event, which never finished)", () => {
    const log = parseContextStateLog("");
    log.iterations.push(...[1, 2, 3].map((run) => ({ type: "iteration" as const, run, findingsCount: 5, newAgreementEligible: 1 })));
    for (let i = 0; i < 200_000; i++) log.events.push({ type: "event", event: "seat_dispatch", run: 3 });
    log.events.push({ type: "event", event: "graph_convergence", run: 3, decision: "CONTINUE" });
    const t0 = performance.now();
    const r = replayHostLoop(log);
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(r.entries.map((e) => e.run)).toEqual([1, 2, 3]);
    expect(r.entries[2]!.events).toHaveLength(200_001);
    expect(r.entries[2]!.graphDecision).toBe("CONTINUE");
  });
});
