import { describe, expect, it } from "vitest";
import { decideContext, decisionFrom, decisionReason, EMPTY_GRAPH_REASON, evaluateContext, STOP_ALLOWED_REASON } from "../../../../lib/deep-context/convergence/decide";
import type { ContextSignals } from "../../../../lib/deep-context/convergence/signals";
import { G } from "./graph-builder";

const passing: ContextSignals = { sliceCoverage: 0.7, reuseCatalogCoverage: 0.6, agreementRate: 0.5, relevanceFloor: 0.5, dependencyCompleteness: 0.7 };

describe("evaluateContext trace", () => {
  it("has one entry per signal with threshold, passed (value ≥ threshold) and role, in order", () => {
    const { trace } = evaluateContext({ ...passing, dependencyCompleteness: 0.69 }, 0, 0);
    expect(trace).toEqual([
      { signal: "sliceCoverage", value: 0.7, threshold: 0.7, passed: true, role: "blocking_guard" },
      { signal: "reuseCatalogCoverage", value: 0.6, threshold: 0.6, passed: true, role: "weighted" },
      { signal: "agreementRate", value: 0.5, threshold: 0.5, passed: true, role: "blocking_guard" },
      { signal: "relevanceFloor", value: 0.5, threshold: 0.5, passed: true, role: "blocking_guard" },
      { signal: "dependencyCompleteness", value: 0.69, threshold: 0.7, passed: false, role: "weighted" },
    ]);
  });
});

describe("evaluateContext blockers", () => {
  it("uncovered_slices when sliceCoverage < 0.7, counting the uncovered slices", () => {
    const { blockers } = evaluateContext({ ...passing, sliceCoverage: 0.69 }, 4, 0);
    expect(blockers).toHaveLength(1);
    expect(blockers[0]).toMatchObject({ type: "uncovered_slices", count: 4, severity: "blocking" });
    expect(blockers[0]!.description).toContain("69%");
  });

  it("low_relevance_focus when relevanceFloor < 0.5 (count 1)", () => {
    const { blockers } = evaluateContext({ ...passing, relevanceFloor: 0.49 }, 9, 0);
    expect(blockers.map((b) => [b.type, b.count, b.severity])).toEqual([["low_relevance_focus", 1, "blocking"]]);
  });

  it("low_cross_executor_agreement when agreementRate < 0.5 (count 1)", () => {
    const { blockers } = evaluateContext({ ...passing, agreementRate: 0.499 }, 0, 0);
    expect(blockers.map((b) => [b.type, b.count, b.severity])).toEqual([["low_cross_executor_agreement", 1, "blocking"]]);
  });

  it("context_contradictions as a warning with the contradiction count", () => {
    const { blockers } = evaluateContext(passing, 0, 3);
    expect(blockers.map((b) => [b.type, b.count, b.severity])).toEqual([["context_contradictions", 3, "warning"]]);
  });

  it("weighted signals below threshold never produce a blocker", () => {
    expect(evaluateContext({ ...passing, reuseCatalogCoverage: 0, dependencyCompleteness: 0 }, 0, 0).blockers).toEqual([]);
  });

  it("lists blockers in the runtime order: slices, relevance, agreement, contradictions", () => {
    const { blockers } = evaluateContext({ ...passing, sliceCoverage: 0, relevanceFloor: 0, agreementRate: 0 }, 2, 1);
    expect(blockers.map((b) => b.type)).toEqual(["uncovered_slices", "low_relevance_focus", "low_cross_executor_agreement", "context_contradictions"]);
  });
});

describe("decision and reason", () => {
  it("STOP_ALLOWED when every trace entry passes and no blocking blocker", () => {
    const { blockers, trace } = evaluateContext(passing, 0, 0);
    expect(decisionFrom(blockers, trace)).toBe("STOP_ALLOWED");
    expect(decisionReason("STOP_ALLOWED", blockers, trace)).toBe("All convergence signals pass thresholds; STOP is allowed pending newInfoRatio agreement.");
    expect(STOP_ALLOWED_REASON).toBe("All convergence signals pass thresholds; STOP is allowed pending newInfoRatio agreement.");
  });

  it("STOP_ALLOWED even with a contradiction warning", () => {
    const { blockers, trace } = evaluateContext(passing, 0, 2);
    expect(decisionFrom(blockers, trace)).toBe("STOP_ALLOWED");
  });

  it("STOP_BLOCKED on any blocking blocker, reason naming only the blocking ones", () => {
    const { blockers, trace } = evaluateContext({ ...passing, sliceCoverage: 0.1, agreementRate: 0.2 }, 3, 5);
    expect(decisionFrom(blockers, trace)).toBe("STOP_BLOCKED");
    expect(decisionReason("STOP_BLOCKED", blockers, trace)).toBe("STOP is blocked by 2 blocker(s): uncovered_slices, low_cross_executor_agreement");
  });

  it("CONTINUE when only weighted signals fail, reason listing the failed signals", () => {
    const { blockers, trace } = evaluateContext({ ...passing, reuseCatalogCoverage: 0.59, dependencyCompleteness: 0.1 }, 0, 0);
    expect(decisionFrom(blockers, trace)).toBe("CONTINUE");
    expect(decisionReason("CONTINUE", blockers, trace)).toBe("Convergence signals not yet met: reuseCatalogCoverage, dependencyCompleteness. Continue iterating.");
  });
});

describe("decideContext payload", () => {
  it("returns CONTINUE, null signals and score 0 for an empty graph", () => {
    const p = decideContext({ nodes: [], edges: [], origin: "derived" });
    expect(p.data.decision).toBe("CONTINUE");
    expect(p.data.reason).toBe(EMPTY_GRAPH_REASON);
    expect(p.data.signals).toBeNull();
    expect(p.data.score).toBe(0);
    expect(p).toMatchObject({
      status: "ok",
      graph_decision: "CONTINUE",
      graph_decision_json: '"CONTINUE"',
      graph_signals_json: {},
      graph_blockers_json: [],
      graph_blockers_csv: "",
      graph_stop_blocked: false,
      graph_trace_json: [],
      graph_convergence_score: 0,
      graph_score_delta: null,
      graph_score_delta_json: "null",
    });
  });

  // 2 slices (1 covered), 1 reuse candidate confirmed by 1, one contradiction edge.
  const blocked = new G()
    .node("s1", "SLICE")
    .node("s2", "SLICE")
    .node("sym", "SYMBOL")
    .node("sym2", "SYMBOL")
    .node("r", "REUSE_CANDIDATE", { relevance: 0.9, confirmations: 1 })
    .edge("s1", "COVERED_BY", "r")
    .edge("sym", "CONTRADICTS", "sym2")
    .build();

  it("shapes data and graph_* fields like convergence.cjs", () => {
    const p = decideContext(blocked, { namespace: { specFolder: "specs/x", sessionId: "ctx-1" } });
    expect(p.data.decision).toBe("STOP_BLOCKED");
    expect(p.data.signals).toEqual({ sliceCoverage: 0.5, reuseCatalogCoverage: 1, agreementRate: 0, relevanceFloor: 1, dependencyCompleteness: 1, score: 0.65 });
    expect(p.data.score).toBe(0.65); // .30·1 + .25·0 + .20·.5 + .15·1 + .10·1
    expect(p.data.namespace).toEqual({ specFolder: "specs/x", loopType: "context", sessionId: "ctx-1" });
    expect(p.data.scopeMode).toBe("session");
    expect(p.data.snapshotPersistence).toBe("not_requested");
    expect([p.data.nodeCount, p.data.edgeCount]).toEqual([5, 2]);
    expect(p.graph_blockers_csv).toBe("uncovered_slices:1,low_cross_executor_agreement:1");
    expect(p.data.blockers.map((b) => b.type)).toContain("context_contradictions");
    expect(p.graph_stop_blocked).toBe(true);
    expect(p.graph_decision_json).toBe('"STOP_BLOCKED"');
    expect(p.graph_signals_json).toEqual(p.data.signals!);
    expect(p.graph_trace_json).toBe(p.data.trace);
    expect(p.graph_convergence_score).toBe(0.65);
  });

  it("takes contradictions from CONTRADICTS edges unless given explicitly", () => {
    expect(decideContext(blocked).data.blockers.find((b) => b.type === "context_contradictions")!.count).toBe(1);
    expect(decideContext(blocked, { contradictions: 0 }).data.blockers.some((b) => b.type === "context_contradictions")).toBe(false);
    expect(decideContext(blocked, { contradictions: 7 }).data.blockers.find((b) => b.type === "context_contradictions")!.count).toBe(7);
  });

  it("computes scoreDelta from the last snapshot and momentum from the last two", () => {
    const p = decideContext(blocked, {
      snapshots: [
        { iteration: 1, metrics: { score: 0.5, sliceCoverage: 0.25 } },
        { iteration: 2, metrics: { score: 0.7, sliceCoverage: 0.5 } },
      ],
    });
    expect(p.data.scoreDelta).toBe(-0.05);
    expect(p.graph_score_delta_json).toBe("-0.05");
    expect(p.data.scoreDeltaNote).toBe("prior snapshot compared");
    expect(p.data.lastIteration).toBe(2);
    expect(p.data.momentum!.score).toBeCloseTo(0.2, 10);
    expect(p.data.momentum!.sliceCoverage).toBeCloseTo(0.25, 10);
    const none = decideContext(blocked);
    expect([none.data.scoreDelta, none.data.scoreDeltaNote, none.data.momentum, none.data.lastIteration]).toEqual([null, "no prior snapshot", null, null]);
  });

  it("reaches STOP_ALLOWED on a fully covered, confirmed graph and CONTINUE when only weighted signals lag", () => {
    const ok = new G()
      .node("s", "SLICE")
      .node("sym", "SYMBOL")
      .node("r", "REUSE_CANDIDATE", { relevance: 0.8, confirmations: 2 })
      .node("d", "DEPENDENCY")
      .edge("s", "COVERED_BY", "r")
      .edge("sym", "DEPENDS_ON", "d")
      .build();
    expect(decideContext(ok).data.decision).toBe("STOP_ALLOWED");
    const lagging = new G().node("s", "SLICE").node("r", "REUSE_CANDIDATE", { relevance: 0.8, confirmations: 2 }).node("d", "DEPENDENCY").edge("s", "COVERED_BY", "r").build();
    const p = decideContext(lagging);
    expect(p.data.decision).toBe("CONTINUE");
    expect(p.data.reason).toBe("Convergence signals not yet met: dependencyCompleteness. Continue iterating.");
  });

  it("lets the variant change the decision", () => {
    const g = new G()
      .node("s", "SLICE")
      .node("sym", "SYMBOL")
      .node("r", "REUSE_CANDIDATE", { relevance: 0.8, confirmations: 2 })
      .node("p", "PATTERN", { relevance: 0.2, confirmations: 1 })
      .node("q", "PATTERN", { relevance: 0.3, confirmations: 1 })
      .edge("s", "COVERED_BY", "r")
      .build();
    // documented: agreement over gated findings only = 1/1; stored: 1/3
    expect(decideContext(g, { variant: "documented" }).data.blockers.map((b) => b.type)).toEqual(["low_relevance_focus"]);
    expect(decideContext(g, { variant: "stored" }).data.blockers.map((b) => b.type)).toEqual(["low_relevance_focus", "low_cross_executor_agreement"]);
    expect(decideContext(g, { variant: "stored" }).data.variant).toBe("stored");
  });
});
