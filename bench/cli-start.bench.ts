/**
 * CLI start benchmark (a script, not a vitest suite), issue 18 item 5: `workbench --help` and
 * `workbench load-context` start in ≤ 150 ms median.
 *
 *   npx tsx bench/cli-start.bench.ts
 *
 * Whole processes as a user runs them, `node bin/workbench.cjs …` (the compiled CLI; built
 * first when a source changed), timed from spawn to exit, each the median of BENCH_RUNS (15).
 * The commands run by turns (floor, --help, load-context, …, then again), so a shared
 * machine's drift reaches every figure alike:
 *   - `node -e 0`: Node's own start, the floor no CLI can go under (information);
 *   - `workbench --help`: target ≤ 150 ms;
 *   - `workbench load-context JIRA-123 --project <sample>`: target ≤ 150 ms. The bundled
 *     sample project (scripts/sample-project.mjs) in a temporary folder, with a temporary
 *     SQLite database indexed once before timing: every run finds nothing changed (the
 *     freshness record of the last index holds) and prints the topic's summary;
 *   - `workbench load-context --project <sample>` (the inventory) and `workbench loader
 *     <prompt> --project <sample>` (the context-loader): information;
 *   - each command's median minus the floor's (information): what the CLI itself adds.
 * Also the load average before and after (a busy machine shows in every figure).
 * Results go to bench/out/cli-start.json.
 *
 * Environment: BENCH_RUNS (15), BENCH_KEEP=1 keeps the temporary project and database.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { RACY_MS } from "../lib/core/fs/freshness";
import { BENCH_DIR, envInt, failure, median, result, resultsTable, writeResults, type BenchResult } from "./report";

const TARGET_MS = 150;
const RUNS = Math.max(1, envInt("BENCH_RUNS", 15));
const APP_ROOT = path.dirname(BENCH_DIR);
const BIN = path.join(APP_ROOT, "bin", "workbench.cjs");
const log = (s = "") => process.stdout.write(s + "\n");

// The CLI runs compiled (dist/cli) as it does after setup; build it if a source changed.
const { cliBuildIsCurrent, buildCli } = await import("../scripts/build-cli.mjs");
if (!cliBuildIsCurrent()) await buildCli();

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wb-cli-start-bench-"));
const sample = path.join(tmp, "sample-project");
const { createSampleProject } = (await import(pathToFileURL(path.join(APP_ROOT, "scripts", "sample-project.mjs")).href)) as {
  createSampleProject: (dir: string) => Promise<void>;
};
await createSampleProject(sample);
const env: NodeJS.ProcessEnv = { ...process.env, WORKBENCH_DATA_DIR: path.join(tmp, "data") };
delete env.DATABASE_URL;
delete env.WORKBENCH_CLI_FROM_SOURCE;

interface Command {
  label: string;
  args: string[];
  target: number | null;
  times: number[];
  error?: string;
}

const commands: Command[] = [
  { label: "node -e 0 (floor)", args: ["-e", "0"], target: null, times: [] },
  { label: "workbench --help", args: [BIN, "--help"], target: TARGET_MS, times: [] },
  { label: "workbench load-context JIRA-123", args: [BIN, "load-context", "JIRA-123", "--project", sample], target: TARGET_MS, times: [] },
  { label: "workbench load-context (inventory)", args: [BIN, "load-context", "--project", sample], target: null, times: [] },
  { label: "workbench loader <prompt>", args: [BIN, "loader", "How do we replay payment webhooks when the provider retries fail?", "--project", sample], target: null, times: [] },
];

function run(c: Command): void {
  if (c.error) return;
  const t0 = performance.now();
  const r = spawnSync(process.execPath, c.args, { cwd: APP_ROOT, env, encoding: "utf8", maxBuffer: 16 << 20 });
  const ms = performance.now() - t0;
  if (r.status !== 0) c.error = `exit ${r.status ?? r.signal}: ${(r.stderr || r.stdout).trim().split("\n").slice(-3).join(" | ")}`;
  else c.times.push(ms);
}

const load = () => os.loadavg()[0]!;
const results: BenchResult[] = [];
try {
  // A project's index vouches for it only once its files are older than the racy window
  // (lib/core/fs/freshness.ts); a user's project is. The sample was written a moment ago.
  await new Promise((r) => setTimeout(r, RACY_MS + 500));
  // Untimed: creates and migrates the database and indexes the sample (the first load-context).
  const first = spawnSync(process.execPath, commands[2]!.args, { cwd: APP_ROOT, env, encoding: "utf8" });
  if (first.status !== 0) throw new Error(`the first load-context (indexing) failed: ${first.stderr.trim()}`);
  // One untimed round warms the file cache.
  for (const c of commands) run(c);
  for (const c of commands) c.times = [];
  const loadBefore = load();
  log(`sample project: ${sample}`);
  log(`${RUNS} runs of each command, by turns; load average ${loadBefore.toFixed(2)} on ${os.availableParallelism()} cores`);
  for (let i = 0; i < RUNS; i++) for (const c of commands) run(c);
  const floor = commands[0]!.times.length ? median(commands[0]!.times) : NaN;
  for (const c of commands) {
    const metric = `${c.label}: wall (median of ${RUNS})`;
    if (c.error) {
      results.push(failure(metric, 0, c.target, new Error(c.error)));
      continue;
    }
    results.push(result(metric, median(c.times), "ms", c.target));
    results.push(result(`  ${c.label}: wall min / max`, Math.min(...c.times), `/ ${Math.round(Math.max(...c.times))} ms`));
    if (c !== commands[0]) results.push(result(`  ${c.label}: median minus the floor`, median(c.times) - floor, "ms"));
  }
  results.push(result("load average (1 min) before / after", loadBefore, `/ ${load().toFixed(2)}`));
} catch (e) {
  results.push(failure("cli start", 0, TARGET_MS, e));
} finally {
  if (process.env.BENCH_KEEP !== "1") fs.rmSync(tmp, { recursive: true, force: true });
  else log(`kept ${tmp}`);
}

log("");
log(resultsTable(results));
log(`\nwrote ${writeResults("cli-start", results)}`);
