import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { evaluatePacket, resolvePacketDir } from "../../../../lib/deep-context/convergence/packet-convergence";
import { FIXTURE_SPEC } from "./graph-builder";

const root = path.resolve(import.meta.dirname, "../../../..");
const tmp = mkdtempSync(path.join(os.tmpdir(), "wb-converge-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function workbench(...args: string[]) {
  return spawnSync(process.execPath, [path.join(root, "bin/workbench.cjs"), ...args], { encoding: "utf8", timeout: 60_000 });
}

describe("evaluatePacket", () => {
  it("finds the packet under {spec}/context or in the folder itself", async () => {
    expect(await resolvePacketDir(FIXTURE_SPEC)).toBe(path.join(FIXTURE_SPEC, "context"));
    expect(await resolvePacketDir(path.join(FIXTURE_SPEC, "context"))).toBe(path.join(FIXTURE_SPEC, "context"));
    await expect(resolvePacketDir(path.join(tmp, "missing"))).rejects.toThrow(/No folder at/);
    await expect(resolvePacketDir(tmp)).rejects.toThrow(/No deep-context packet/);
  });

  it("derives the fixture graph from its seat and delta files and says so", async () => {
    const res = await evaluatePacket(FIXTURE_SPEC);
    expect(res.graph.origin).toBe("derived");
    expect(res.graphSource).toMatchObject({ origin: "derived", seatFiles: ["seats/iter-003/mimo-c.json"], deltaFiles: ["deltas/iter-001.jsonl"], iterations: 10, runsWithoutFindings: [2, 4, 5, 6, 7, 8, 9, 10] });
    const d = res.payload.data;
    expect(d.graphOrigin).toBe("derived");
    expect(d.notes.some((n) => n.includes("derived"))).toBe(true);
    expect(d.signals!.sliceCoverage).toBe(0.2);
    expect(d.decision).toBe("STOP_BLOCKED");
    expect(d.blockers.find((b) => b.type === "uncovered_slices")!.count).toBe(8);
    expect(d.lastIteration).toBe(10); // prior snapshot = the log's last graph_convergence event
    expect(d.scoreDelta).toBe(Math.round((d.score - 0.811) * 1000) / 1000);
    expect(d.namespace.sessionId).toBe("ctx-20260610-155419-sqlt");
    expect(res.replay!.stopReason).toBe("maxIterationsReached");
  });

  it("prefers a stored coverage-graph.json in the packet", async () => {
    const pkt = path.join(tmp, "stored", "context");
    mkdirSync(pkt, { recursive: true });
    writeFileSync(
      path.join(pkt, "coverage-graph.json"),
      JSON.stringify({
        nodes: [
          { id: "s", kind: "SLICE" },
          { id: "r", kind: "REUSE_CANDIDATE", metadata: { relevance: 0.9, confirmations: 2 } },
        ],
        edges: [{ source: "s", target: "r", relation: "COVERED_BY" }],
      }),
    );
    const res = await evaluatePacket(path.join(tmp, "stored"));
    expect(res.graphSource).toEqual({ origin: "stored", file: path.join(pkt, "coverage-graph.json") });
    expect(res.payload.data.decision).toBe("STOP_ALLOWED");
    expect(res.replay).toBeNull();
  });
});

describe("evaluatePacket with a config file", () => {
  it("reads host settings from deep-context-config.json over the JSONL config line, and warns on a bad one", async () => {
    const spec = path.join(tmp, "configured");
    const pkt = path.join(spec, "context");
    mkdirSync(pkt, { recursive: true });
    const log = [
      { type: "config", maxIterations: 10, convergenceThreshold: 0.1 },
      { type: "iteration", run: 1, focus: "S1", findingsCount: 5, newAgreementEligible: 5 },
      { type: "iteration", run: 2, focus: "S2", findingsCount: 5, newAgreementEligible: 5 },
    ];
    writeFileSync(path.join(pkt, "deep-context-state.jsonl"), log.map((l) => JSON.stringify(l)).join("\n"));
    writeFileSync(path.join(pkt, "deep-context-config.json"), JSON.stringify({ maxIterations: 2, status: "running" }));
    const res = await evaluatePacket(spec);
    expect(res.replay!.config.maxIterations).toBe(2);
    expect([res.replay!.stopReason, res.replay!.stoppedAtRun]).toEqual(["maxIterationsReached", 2]);
    // no findings at all: only the two slices, both uncovered
    expect(res.payload.data.signals!.sliceCoverage).toBe(0);

    writeFileSync(path.join(pkt, "deep-context-config.json"), JSON.stringify({ maxIterations: "two" }));
    const bad = await evaluatePacket(spec);
    expect(bad.replay!.config.maxIterations).toBe(10);
    expect(bad.warnings.some((w) => w.startsWith("deep-context-config.json ignored: maxIterations"))).toBe(true);
  });
});

// Each case spawns the CLI (tsx start-up ≈ 1–2 s), so these get a longer per-test timeout.
const CLI_TIMEOUT = 60_000;

describe("workbench converge", () => {
  it(
    "prints signals, score, decision, blockers and the loop replay for the fixture",
    () => {
      const r = workbench("converge", FIXTURE_SPEC);
      expect(r.status).toBe(0);
      expect(r.stderr).toBe("");
      expect(r.stdout).toContain("Graph: derived from 1 seat file(s) and 1 delta file(s)");
      expect(r.stdout).toMatch(/sliceCoverage\s+0\.200\s+\(2\/10\)/);
      expect(r.stdout).toContain("Decision: STOP_BLOCKED: STOP is blocked by 2 blocker(s): uncovered_slices, low_cross_executor_agreement");
      expect(r.stdout).toContain("  - low_cross_executor_agreement (blocking, count 1)");
      expect(r.stdout).toContain("rules stop: maxIterationsReached at run 10; recorded stop: maxIterationsReached; last graph decision: STOP_BLOCKED [low_cross_executor_agreement]");
    },
    CLI_TIMEOUT,
  );

  it(
    "prints the payload with --json and honours --variant stored",
    () => {
      const r = workbench("converge", FIXTURE_SPEC, "--json", "--variant", "stored");
      expect(r.status).toBe(0);
      const body = JSON.parse(r.stdout) as {
        status: string;
        graph_decision: string;
        graph_origin: string;
        graph_blockers_csv: string;
        data: { variant: string; signals: { dependencyCompleteness: number } };
        replay: { stopReason: string };
      };
      expect(body.status).toBe("ok");
      expect(body.graph_origin).toBe("derived");
      expect(body.data.variant).toBe("stored");
      expect(body.data.signals.dependencyCompleteness).toBe(0);
      expect(body.graph_decision).toBe("STOP_BLOCKED");
      expect(body.graph_blockers_csv).toBe("uncovered_slices:8,low_cross_executor_agreement:1");
      expect(body.replay.stopReason).toBe("maxIterationsReached");
    },
    CLI_TIMEOUT,
  );

  it(
    "fails with a clear message on a missing folder, a folder without a packet, a bad variant and a bad graph",
    () => {
      const missing = workbench("converge", path.join(tmp, "nope"));
      expect(missing.status).not.toBe(0);
      expect(missing.stderr).toContain("ERROR: No folder at");
      expect(missing.stdout).toBe("");
      const empty = workbench("converge", tmp);
      expect(empty.status).not.toBe(0);
      expect(empty.stderr).toContain("ERROR: No deep-context packet in");
      const variant = workbench("converge", FIXTURE_SPEC, "--variant", "newest");
      expect(variant.status).not.toBe(0);
      expect(variant.stderr).toContain('ERROR: Unknown --variant "newest": use documented or stored');
      const badGraph = path.join(tmp, "bad-graph.json");
      writeFileSync(badGraph, JSON.stringify({ nodes: [{ id: "a", kind: "ITERATION" }] }));
      const bad = workbench("converge", FIXTURE_SPEC, "--graph", badGraph);
      expect(bad.status).not.toBe(0);
      expect(bad.stderr).toMatch(/ERROR: .*bad-graph\.json: invalid coverage graph: nodes\.0\.kind/);
    },
    CLI_TIMEOUT,
  );

  it(
    "documents itself with --help",
    () => {
      const r = workbench("converge", "--help");
      expect(r.status).toBe(0);
      expect(r.stdout).toContain("Usage: workbench converge [options] <spec-folder>");
      expect(r.stdout).toContain("--variant <variant>");
      expect(r.stdout).toContain("coverage-graph.json");
    },
    CLI_TIMEOUT,
  );
});
