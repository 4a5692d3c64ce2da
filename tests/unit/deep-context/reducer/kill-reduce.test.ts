/**
 * kill -9 at any step of `workbench reduce` (issue 31, point 3): the packet's registry and
 * dashboard are both those of the reduce before or both those of the reduce after, never one of
 * each, never torn, and nothing the killed run left behind outlives the next reduce. File-only:
 * a reduce writes no database (the server only reads packets).
 *
 * The packet gains a seat's findings after its first reduce, so the second reduce (the one
 * killed) writes different bytes to both files. Kill points are step numbers of that reduce
 * (tests/helpers/kill-switch.cjs counts its file changes). The loop runs the reducer's own
 * entry (cli/reduce-main.ts) bundled as the CLI build bundles it, so each start takes ~0.1 s
 * instead of tsx's ~1 s; the end runs the real `workbench reduce` (bin/workbench.cjs).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatePacket } from "../../../../bench/generate-context-packet";
import { recoverCommits } from "../../../../lib/core/fs/commit-together";
import { CLI, REPO, countSteps, eachBounded, killPoints, runWriter } from "../../../helpers/kill-points";
import { makeTempDir, removeTempDirs } from "../../../helpers/project-builder";

afterAll(removeTempDirs);

const OUTPUTS = ["findings-registry.json", "deep-context-dashboard.md"] as const;
type Outputs = Record<(typeof OUTPUTS)[number], string>;

const readOutputs = (spec: string): Outputs => Object.fromEntries(OUTPUTS.map((f) => [f, fs.readFileSync(path.join(spec, "context", f), "utf8")])) as Outputs;
/** What a reduce may leave in the packet folder besides its outputs: temps and commit records. */
const leftovers = (spec: string): string[] => fs.readdirSync(path.join(spec, "context")).filter((n) => n.startsWith(".workbench-commit.") || OUTPUTS.some((f) => n.startsWith(`${f}.tmp.`)));
const records = (spec: string): string[] => leftovers(spec).filter((n) => n.startsWith(".workbench-commit."));

/** The reducer's entry as scripts/build-cli.mjs builds it (one CommonJS file, packages external), and a runner for it. */
async function bundleReducer(dir: string): Promise<string> {
  const { build } = await import("esbuild");
  const entry = path.join(dir, "reduce-main.cjs");
  await build({
    absWorkingDir: REPO,
    entryPoints: ["cli/reduce-main.ts"],
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    packages: "external",
    logLevel: "warning",
    define: { "import.meta.url": "__wbImportMetaUrl" },
    banner: { js: '"use strict";\nconst __wbImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
    supported: { "dynamic-import": false },
    outfile: entry,
  });
  const runner = path.join(dir, "reduce.cjs");
  fs.writeFileSync(runner, `"use strict";\nvoid require(${JSON.stringify(entry)}).main(process.argv.slice(2)).then((code) => { process.exitCode = code; });\n`);
  return runner;
}

describe("kill -9 during workbench reduce", () => {
  let dir = "";
  let pristine = "";
  let reducer = "";
  const state: Record<"before" | "after", Outputs> = { before: {} as Outputs, after: {} as Outputs };
  let steps = 0;
  const fresh = (name: string): string => {
    const spec = path.join(dir, name, "spec");
    fs.cpSync(pristine, spec, { recursive: true });
    return spec;
  };

  beforeAll(async () => {
    dir = makeTempDir("wb-kill-reduce-");
    reducer = await bundleReducer(dir);
    pristine = path.join(dir, "pristine", "spec");
    generatePacket(pristine, { iterations: 2, executors: 3, perSeat: 300, seed: 31 });
    const first = await runWriter([reducer, pristine], {}, 0);
    expect(first.code, first.stderr).toBe(0);
    state.before = readOutputs(pristine);
    // A seat's findings arrive after the first reduce: the next one writes other bytes to both files.
    const other = path.join(dir, "other", "spec");
    generatePacket(other, { iterations: 1, executors: 3, perSeat: 200, seed: 32 });
    fs.copyFileSync(path.join(other, "context", "seats", "iter-001", "native-a.json"), path.join(pristine, "context", "seats", "iter-002", "late-seat.json"));
    const counted = fresh("count");
    const count = await countSteps([reducer, counted], {});
    steps = count.steps;
    state.after = readOutputs(counted);
    for (const f of OUTPUTS) expect(state.after[f], f).not.toBe(state.before[f]);
    expect(leftovers(counted)).toEqual([]);
  }, 60_000);

  it("leaves both outputs of the reduce before or both of the reduce after, at every kill point", async () => {
    const t0 = performance.now();
    const points = killPoints(steps, 31);
    const seen = { before: 0, after: 0, finishedByRecovery: 0 };
    const mixSteps = new Set<number>();
    await eachBounded(points, 2, async (at, i) => {
      const spec = fresh(`k${i}`);
      const r = await runWriter([reducer, spec], {}, at);
      const where = `kill at step ${at} of ${steps}`;
      expect(r.signal, `${where}: ${r.stderr}`).toBe("SIGKILL");
      // As the kill left them: each file whole (exactly one of its two versions), the registry parses.
      const raw = readOutputs(spec);
      const version = Object.fromEntries(OUTPUTS.map((f) => [f, raw[f] === state.before[f] ? "before" : raw[f] === state.after[f] ? "after" : "torn"]));
      for (const f of OUTPUTS) expect(version[f], `${where}: ${f}`).not.toBe("torn");
      expect(() => JSON.parse(raw["findings-registry.json"]) as unknown, where).not.toThrow();
      // One file new and one old only between the two renames, and then the commit record is there.
      const mixed = new Set(Object.values(version)).size > 1;
      if (mixed) {
        expect(records(spec), `${where}: a mix without a commit record to finish it`).toHaveLength(1);
        mixSteps.add(at);
      }
      // What the next reduce does first (lib/core/fs/commit-together.ts): then the pair is one state, nothing left over.
      recoverCommits(path.join(spec, "context"), OUTPUTS);
      const now = readOutputs(spec);
      const outcome = JSON.stringify(now) === JSON.stringify(state.before) ? "before" : JSON.stringify(now) === JSON.stringify(state.after) ? "after" : null;
      expect(outcome, `${where}: outputs neither all before nor all after (${JSON.stringify(version)})`).not.toBeNull();
      expect(leftovers(spec), where).toEqual([]);
      seen[outcome!]++;
      if (mixed) {
        expect(outcome, `${where}: a committed reduce is finished, not undone`).toBe("after");
        seen.finishedByRecovery++;
      }
      fs.rmSync(path.dirname(spec), { recursive: true, force: true });
    });
    expect(seen.before).toBeGreaterThan(0);
    expect(seen.after).toBeGreaterThan(0);
    expect(seen.finishedByRecovery).toBeGreaterThan(0);
    console.log(`kill -9 reduce: ${points.length} kill points over ${steps} steps in ${Math.round(performance.now() - t0)} ms:`, seen, "mix at steps", [...mixSteps]);

    // The real CLI: killed between its two renames, then run again to its end, it gives the
    // state after, with nothing left behind.
    // Run once before counting: from the sources, tsx's first start writes its cache (steps of a first run only).
    const warm = await runWriter([CLI, "reduce", fresh("cli-warm")], {}, 0);
    expect(warm.code, warm.stderr).toBe(0);
    const cliSteps = (await countSteps([CLI, "reduce", fresh("cli")], {})).steps;
    const again = fresh("cli-killed");
    // The same steps end both runs: the mix step counted from the end, as the loop found it.
    expect(mixSteps.size).toBe(1);
    const killed = await runWriter([CLI, "reduce", again], {}, cliSteps - (steps - [...mixSteps][0]!));
    expect(killed.signal, killed.stderr).toBe("SIGKILL");
    expect(readOutputs(again)["findings-registry.json"]).toBe(state.after["findings-registry.json"]);
    expect(readOutputs(again)["deep-context-dashboard.md"]).toBe(state.before["deep-context-dashboard.md"]);
    expect(records(again)).toHaveLength(1);
    const done = await runWriter([CLI, "reduce", again], {}, 0);
    expect(done.code, done.stderr).toBe(0);
    expect(readOutputs(again)).toEqual(state.after);
    expect(leftovers(again)).toEqual([]);
  }, 120_000);
});
