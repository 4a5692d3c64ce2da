import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pageViewOf } from "../../../../lib/deep-context/service";
import { loadRunView } from "../../../../lib/deep-context/views/run-view";
import type { RunView } from "../../../../lib/deep-context/views/run-view";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const SAMPLE = path.resolve(import.meta.dirname, "../../../../examples/sample-project");
const SAMPLE_RUN = ".opencode/specs/z_future/sqlite-to-turso/context";

function packet(records: object[], seats: Record<string, object[]> = {}): { root: string; rel: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "wb-provenance-"));
  dirs.push(root);
  const rel = ".opencode/specs/p/context";
  fs.mkdirSync(path.join(root, rel), { recursive: true });
  fs.writeFileSync(path.join(root, rel, "deep-context-state.jsonl"), records.map((r) => JSON.stringify(r)).join("\n") + "\n");
  for (const [file, findings] of Object.entries(seats)) {
    fs.mkdirSync(path.dirname(path.join(root, rel, file)), { recursive: true });
    fs.writeFileSync(path.join(root, rel, file), JSON.stringify(findings));
  }
  return { root, rel };
}

/** Every chart agrees with its gate: the last solid point is the logged value, the marker the computed one. */
function expectChartsMatchGates(view: RunView) {
  const points = pageViewOf(view).signalPoints;
  for (const g of view.provenance.gates) {
    const lastLogged = [...points].reverse().find((p) => typeof p[g.signal] === "number");
    expect(lastLogged ? { value: lastLogged[g.signal], run: lastLogged.run } : null, g.signal).toEqual(g.logged ? { value: g.logged.value, run: g.logged.run } : null);
    const marked = points.filter((p) => typeof p[`${g.signal}:computed`] === "number");
    expect(
      marked.map((p) => [p.run, p[`${g.signal}:computed`]]),
      g.signal,
    ).toEqual(g.computed ? [[view.provenance.computedThrough, g.computed.value]] : []);
  }
}

describe("signal provenance on the bundled sample run", () => {
  it("gives each gate its computed value with its counts and the log's value with its iteration, and the charts draw the same numbers", async () => {
    const view = await loadRunView(SAMPLE, SAMPLE_RUN);
    const p = view.provenance;
    expect(p.loggedSource).toBe("graph_convergence");
    expect(p.computedThrough).toBe(10);
    const slice = p.gates.find((g) => g.signal === "sliceCoverage")!;
    // What the issue saw: 0.200 in the gates against a chart ending at 1.0.
    expect(slice.computed).toMatchObject({ value: 0.2, numerator: 2, denominator: 10, counts: "2 of 10 slices covered" });
    expect(slice.logged).toEqual({ value: 1, run: 10, passed: true });
    expect(slice.differs).toBe(true);
    // The log's graph_convergence value of iteration 10, not the iteration record's 0.517.
    expect(p.gates.find((g) => g.signal === "agreementRate")!.logged).toMatchObject({ run: 10, value: 0.24305555555555555 });
    expect(p.gates.find((g) => g.signal === "reuseCatalogCoverage")!).toMatchObject({ logged: { value: 1 }, differs: false });
    expect(p.explanation).toMatch(/^sliceCoverage, agreementRate, relevanceFloor differ\./);
    expect(p.explanation).toContain("iteration(s) 2, 4–10 of 10 have no findings in them");
    expect(p.loggedDecision).toEqual({ decision: "STOP_BLOCKED", run: 10 });
    expect(p.loggedScore).toEqual({ value: 0.811, run: 10 });
    expect(p.computedScore).toBe(view.payload.data.score);
    expectChartsMatchGates(view);
    // The iteration records' own figures stay on the chart, under their own key.
    const last = pageViewOf(view).signalPoints.at(-1)!;
    expect(last["agreementRate:record"]).toBe(0.517);
    expect(last["score:computed"]).toBe(view.payload.data.score);
  });

  it("puts the event timeline in time order", async () => {
    const view = await loadRunView(SAMPLE, SAMPLE_RUN);
    const times = view.events.map((e) => Date.parse(e.timestamp!));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(view.events.length).toBe(25);
  });
});

describe("signal provenance", () => {
  const seat = (label: string, relevance: number) => ({ [`seats/iter-001/${label}.json`]: [{ path: "src/a.ts", symbol: "A", kind: "reuse_candidate", relevance, evidence: "src/a.ts:1" }] });

  it("uses the iteration records when the log has no graph signals, and says nothing when the values agree", async () => {
    const { root, rel } = packet(
      [
        { type: "config", loopType: "context", maxIterations: 2 },
        {
          type: "iteration",
          run: 1,
          mode: "context",
          status: "evidence",
          focus: "Slice 1",
          findingsCount: 1,
          newAgreementEligible: 1,
          agreementEligible: 1,
          agreementRate: 1,
          relevanceFloor: 1,
          timestamp: "2026-06-10T10:00:00Z",
        },
      ],
      { ...seat("a", 0.9), ...seat("b", 0.8) },
    );
    const view = await loadRunView(root, rel);
    expect(view.provenance.loggedSource).toBe("iteration");
    const agreement = view.provenance.gates.find((g) => g.signal === "agreementRate")!;
    expect(agreement).toMatchObject({ computed: { value: 1, numerator: 1, denominator: 1 }, logged: { value: 1, run: 1 }, differs: false });
    expect(view.provenance.gates.find((g) => g.signal === "sliceCoverage")!.logged).toBeNull();
    expect(view.provenance.explanation).toBeNull();
    expectChartsMatchGates(view);
  });

  it("takes each signal's latest logged value, even from an earlier iteration, and explains a difference", async () => {
    const { root, rel } = packet(
      [
        { type: "config", loopType: "context", maxIterations: 3 },
        { type: "iteration", run: 1, mode: "context", status: "evidence", focus: "Slice 1", findingsCount: 1, newAgreementEligible: 0, agreementEligible: 0, agreementRate: 0.9, timestamp: "2026-06-10T10:00:00Z" },
        { type: "event", event: "graph_convergence", run: 1, decision: "STOP_BLOCKED", signals: { agreementRate: 0.4, sliceCoverage: 0.5, score: 0.5 }, timestamp: "2026-06-10T10:01:00Z" },
        { type: "iteration", run: 2, mode: "context", status: "evidence", focus: "Slice 2", findingsCount: 1, newAgreementEligible: 0, agreementEligible: 0, timestamp: "2026-06-10T11:00:00Z" },
        { type: "event", event: "graph_convergence", run: 2, decision: "CONTINUE", signals: { sliceCoverage: 0.8, score: 0.6 }, timestamp: "2026-06-10T11:01:00Z" },
      ],
      seat("a", 0.9),
    );
    const view = await loadRunView(root, rel);
    const p = view.provenance;
    expect(p.loggedSource).toBe("graph_convergence");
    expect(p.gates.find((g) => g.signal === "agreementRate")!).toMatchObject({ logged: { value: 0.4, run: 1 }, computed: { value: 0, numerator: 0, denominator: 1 }, differs: true });
    expect(p.gates.find((g) => g.signal === "sliceCoverage")!.logged).toEqual({ value: 0.8, run: 2, passed: true });
    expect(p.loggedDecision).toEqual({ decision: "CONTINUE", run: 2 });
    expect(p.explanation).toContain("agreementRate");
    expect(p.explanation).toContain("from its own coverage graph, which this packet does not keep");
    expectChartsMatchGates(view);
  });
});
