import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ProjectFs } from "../../../../lib/core/project-fs";
import { runExecutors, seatFileLabels } from "../../../../lib/deep-context/views/executors";
import { loadRunView } from "../../../../lib/deep-context/views/run-view";
import { summarizeRun } from "../../../../lib/deep-context/views/run-summary";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function project(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "wb-executors-"));
  dirs.push(root);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

const sweep = (run: number, ok: string[], failed: string[] = []) => ({ type: "event", event: "sweep_settled", mode: "context", run, seatsSucceeded: ok, seatsFailed: failed, timestamp: `2026-06-10T1${run}:00:00Z` });

describe("runExecutors", () => {
  it("joins the config's pool, the seats the log names and the seats with files, sorted by label", () => {
    const config = { fanout: { executors: [{ kind: "native", label: "native-a" }, { kind: "cli-opencode", label: "mimo", model: "MiMo-v2.5-pro" }, { kind: "native" }] } };
    const events = [sweep(1, ["native-a", "mimo"], ["codex"]), sweep(2, ["native-a"], ["mimo", "codex"]), { type: "event", event: "graph_convergence", run: 2 }];
    const seatFiles = [
      { label: "native-a", iteration: 1 },
      { label: "mimo", iteration: 1 },
      { label: "mimo", iteration: 1 },
      { label: "late-seat", iteration: 3 },
    ];
    expect(runExecutors({ config, events, seatFiles })).toEqual([
      { label: "codex", kind: null, model: null, configured: false, sweeps: 2, failedSweeps: 2, seatFileIterations: 0 },
      { label: "late-seat", kind: null, model: null, configured: false, sweeps: 0, failedSweeps: 0, seatFileIterations: 1 },
      { label: "mimo", kind: "cli-opencode", model: "MiMo-v2.5-pro", configured: true, sweeps: 2, failedSweeps: 1, seatFileIterations: 1 },
      { label: "native-a", kind: "native", model: null, configured: true, sweeps: 2, failedSweeps: 0, seatFileIterations: 1 },
    ]);
  });

  it("reads nothing it does not understand: no config, odd shapes, blank labels", () => {
    expect(runExecutors({ config: null, events: [], seatFiles: [] })).toEqual([]);
    expect(runExecutors({ config: { fanout: { executors: "native" } }, events: [{ event: "sweep_settled", seatsSucceeded: ["", 3, " a "] }], seatFiles: [] }).map((e) => e.label)).toEqual(["a"]);
  });
});

describe("seatFileLabels", () => {
  it("lists both seat layouts; a raw seat file is its seat's", async () => {
    const root = project({
      "ctx/seats/iter-001/a.json": "[]",
      "ctx/seats/iter-001/b.raw.json": "not json",
      "ctx/seats/iter-002/a.json": "[]",
      "ctx/seats/iter-002/notes.txt": "",
      "ctx/seats/c/iter-003/out.json": "[]",
      "ctx/seats/c/iter-004/readme.md": "",
    });
    const pfs = await ProjectFs.open(root);
    expect(seatFileLabels(pfs, "ctx").sort((x, y) => x.label.localeCompare(y.label) || x.iteration - y.iteration)).toEqual([
      { label: "a", iteration: 1 },
      { label: "a", iteration: 2 },
      { label: "b", iteration: 1 },
      { label: "c", iteration: 3 },
    ]);
    expect(seatFileLabels(pfs, "nowhere")).toEqual([]);
  });
});

describe("the run list and the run page name the same executors", () => {
  it("three seats swept, one left a seat file: both say three", async () => {
    const rel = ".opencode/specs/x/context";
    const log = [
      { type: "config", scope: "x", loopType: "context", maxIterations: 3, createdAt: "2026-06-10T10:00:00Z" },
      sweep(1, ["mimo-a", "mimo-b", "mimo-c"]),
      { type: "iteration", run: 1, mode: "context", status: "evidence", focus: "Slice 1", findingsCount: 1, newAgreementEligible: 0, agreementEligible: 0, timestamp: "2026-06-10T11:00:00Z" },
    ];
    const root = project({
      [`${rel}/deep-context-state.jsonl`]: log.map((r) => JSON.stringify(r)).join("\n") + "\n",
      [`${rel}/seats/iter-001/mimo-c.json`]: JSON.stringify([{ path: "src/a.ts", symbol: "a", kind: "dependency", relevance: 0.9, evidence: "src/a.ts:1" }]),
    });
    const pfs = await ProjectFs.open(root);
    const summary = await summarizeRun(pfs, { loopType: "context", relPath: rel, specFolder: ".opencode/specs/x", archived: false, hasState: true, hasConfig: false }, () => undefined);
    const view = await loadRunView(root, rel);
    expect(summary.executors).toEqual(["mimo-a", "mimo-b", "mimo-c"]);
    expect(view.executors.map((e) => e.label)).toEqual(summary.executors);
    // The registry's pool stays what the reducer makes it: the seats whose files parsed.
    expect(view.registry?.executorPool).toEqual(["mimo-c"]);
  });
});
