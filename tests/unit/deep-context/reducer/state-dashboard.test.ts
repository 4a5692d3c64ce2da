import { describe, expect, it } from "vitest";
import { renderDashboard } from "../../../../lib/deep-context/reducer/dashboard";
import { buildRegistry } from "../../../../lib/deep-context/reducer/registry";
import { graphRollupOf, isProgressRecord, lineageOf, splitRecords, statusOf } from "../../../../lib/deep-context/reducer/state";
import { UnitTable, fnvString } from "../../../../lib/deep-context/reducer/units";

describe("state records", () => {
  it("drops progress records, keeps iterations sorted by run (non-numeric as 0) and events in order", () => {
    const { iterations, events } = splitRecords([
      { type: "iteration", run: 3 },
      { type: "iteration", run: "x" },
      { type: "iteration", run: 1, event: "progress_record" },
      { type: "progress" },
      { type: "event", event: "a" },
      null,
      5,
      { type: "iteration", run: "2" },
      { type: "event", event: "b" },
    ]);
    expect(iterations.map((r) => r.run)).toEqual(["x", "2", 3]);
    expect(events.map((r) => r.event)).toEqual(["a", "b"]);
    expect(isProgressRecord({ event: "progress_record" })).toBe(true);
  });

  it("lineage: latest resumed/restarted event, else config.lineage, else defaults", () => {
    const config = { lineage: { sessionId: "cfg", lineageMode: "new", generation: 1 } };
    expect(lineageOf({}, [])).toEqual({ sessionId: null, lineageMode: "new", generation: 1 });
    expect(lineageOf(config, [])).toEqual({ sessionId: "cfg", lineageMode: "new", generation: 1 });
    expect(
      lineageOf(config, [
        { event: "resumed", sessionId: "s2", lineageMode: "resume", generation: 2 },
        { event: "other", sessionId: "no" },
      ]),
    ).toEqual({ sessionId: "s2", lineageMode: "resume", generation: 2 });
    // An empty session id or a non-number generation in the event falls back field by field.
    expect(lineageOf(config, [{ event: "restarted", sessionId: "", lineageMode: "restart", generation: "3" }])).toEqual({ sessionId: "cfg", lineageMode: "restart", generation: 1 });
    expect(lineageOf(0, [])).toEqual({ sessionId: null, lineageMode: "new", generation: 1 });
  });

  it("status: COMPLETE after synthesis or a complete(d) config, ITERATING when running or iterated, else the config status", () => {
    expect(statusOf({}, [], [{ event: "synthesis_complete" }])).toBe("COMPLETE");
    expect(statusOf({ status: "Completed" }, [], [])).toBe("COMPLETE");
    expect(statusOf({ status: "running" }, [], [])).toBe("ITERATING");
    expect(statusOf({ status: "paused" }, [{ type: "iteration" }], [])).toBe("ITERATING");
    expect(statusOf({ status: "paused" }, [], [])).toBe("PAUSED");
    expect(statusOf({}, [], [])).toBe("INITIALIZED");
  });

  it("graph rollup: the latest graph_convergence event", () => {
    const g = graphRollupOf([
      { event: "graph_convergence", decision: "CONTINUE", signals: { sliceCoverage: 0.2 }, blockers: ["a"] },
      { event: "graph_convergence", decision: 7, signals: null, blockers: "x" },
    ]);
    expect(g).toEqual({ graphDecision: null, graphSignals: {}, graphBlockers: [] });
    expect(graphRollupOf([]).graphDecision).toBeNull();
  });
});

describe("renderDashboard", () => {
  function registryWith(n: number) {
    const t = new UnitTable();
    for (let i = 0; i < n; i++) {
      const c = `src/f${i}.ts:sym${i}:reuse_candidate`;
      t.createDerived(c, fnvString(c), `src/f${i}.ts`, `sym${i}`, "reuse_candidate", 0, 1).observe("a", 0.9 - i / 1000, 1, "", i % 2 ? "extend" : "");
    }
    return buildRegistry(t.units, {});
  }
  const base = { config: {}, iterations: [], lineage: { sessionId: null, lineageMode: "new", generation: 1 }, graph: graphRollupOf([]), status: "INITIALIZED" };

  it("shows placeholders for an empty packet", () => {
    const md = renderDashboard({ ...base, registry: registryWith(0) });
    expect(md).toContain("- Scope: [Unknown scope]\n- Started: [Unknown start]\n- Status: INITIALIZED\n- Iterations (parallel sweeps): 0 of 0\n- Session ID: [Unknown session]");
    expect(md).toContain("| 0 | none yet | 0 | 0 | 0.00 | 0.00 | initialized |");
    expect(md).toContain("| none yet | - | 0 | 0.00 | - |");
    expect(md).toContain("## 5. CONTRADICTIONS (surfaced, never auto-resolved)\n- None surfaced\n");
    expect(md).toContain("- graphDecision: [Not recorded]\n- sliceCoverage: [n/a]");
    expect(md).toContain("- Blockers: none recorded\n");
    expect(md.endsWith("- Blockers: none recorded\n")).toBe(true);
  });

  it("lists at most 15 reuse candidates with '-' for missing reuse/evidence", () => {
    const md = renderDashboard({ ...base, registry: registryWith(20) });
    const rows = md.split("\n").filter((l) => /^\| sym\d+ \|/.test(l));
    expect(rows).toHaveLength(15);
    expect(rows[0]).toBe("| sym0 | - | 1 | 0.90 | - |");
    expect(rows[1]).toBe("| sym1 | extend | 1 | 0.90 | - |");
  });

  it("prints progress rows, blockers of every shape and the active-risk note after an errored iteration", () => {
    const md = renderDashboard({
      ...base,
      registry: registryWith(0),
      iterations: [{ run: 1, focus: " a \n b ", findingsCount: "3", newAgreementEligible: null, sliceCoverage: 0.125, agreementRate: "0.5", status: "error" }],
      graph: { graphDecision: "STOP_BLOCKED", graphSignals: { agreementRate: 0.005 }, graphBlockers: ["x", { type: "t" }, { name: "n" }, { count: 1 }, null] },
    });
    expect(md).toContain("| 1 | a b | 3 | 0 | 0.13 | 0.00 | error |");
    expect(md).toContain("- agreementRate: 0.01");
    expect(md).toContain('- Blocker: x\n- Blocker: t\n- Blocker: n\n- Blocker: {"count":1}\n- Blocker: null\n\n## 7. ACTIVE RISKS\n- Latest iteration reported error status.\n');
  });
});
