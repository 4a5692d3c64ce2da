/**
 * Runs every bench/*.bench.ts in its own process (one after another, so they do not
 * disturb each other's timings), then prints one summary of all results.
 *
 *   npm run bench            # all benchmarks
 *   npm run bench -- index   # only those whose file name contains "index"
 *
 * Each benchmark prints its own table and writes bench/out/<name>.json (a list of
 * {metric, value, unit, target, pass}). Exit code: 0 when every benchmark ran, even if a
 * target was missed (the summary says MISSED); 1 when a benchmark crashed.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BENCH_DIR, OUT_DIR, fmt, table, verdict, type BenchResult } from "./report";

const filters = process.argv.slice(2);
const files = fs
  .readdirSync(BENCH_DIR)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

if (files.length === 0) {
  process.stderr.write(`no bench/*.bench.ts file${filters.length ? ` matching ${filters.join(", ")}` : ""}\n`);
  process.exit(1);
}

const appRoot = path.dirname(BENCH_DIR);
const summary: { name: string; ok: boolean; seconds: number; results: BenchResult[] }[] = [];

for (const file of files) {
  const name = file.slice(0, -".bench.ts".length);
  const out = path.join(OUT_DIR, `${name}.json`);
  fs.rmSync(out, { force: true });
  process.stdout.write(`\n=== ${file} ${"=".repeat(Math.max(3, 70 - file.length))}\n`);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ["--import", "tsx", path.join(BENCH_DIR, file)], { cwd: appRoot, stdio: "inherit", env: process.env });
  const seconds = (performance.now() - t0) / 1000;
  let results: BenchResult[] = [];
  if (fs.existsSync(out)) {
    try {
      results = JSON.parse(fs.readFileSync(out, "utf8")) as BenchResult[];
    } catch {
      /* reported as a failure below */
    }
  }
  const ok = r.status === 0 && results.length > 0;
  if (!ok) process.stdout.write(`${file} FAILED (exit ${r.status ?? r.signal})\n`);
  summary.push({ name, ok, seconds, results });
}

process.stdout.write(`\n=== summary ${"=".repeat(62)}\n`);
const rows: string[][] = [];
for (const s of summary) {
  if (!s.ok) rows.push([`${s.name}: FAILED`, "", "", "", "FAILED"]);
  // Headline figures only: those with a target, and top-level info lines.
  for (const r of s.results.filter((x) => !x.metric.startsWith(" "))) {
    rows.push([`${s.name}: ${r.metric}`, fmt(r.value), r.unit, r.target === null ? "" : `<= ${fmt(r.target)}`, verdict(r)]);
  }
}
process.stdout.write(table(["metric", "value", "unit", "target", "result"], rows) + "\n\n");
const missed = summary.flatMap((s) =>
  s.results
    .filter((r) => r.pass === false)
    .map((r) => (r.error ? `${s.name}: ${r.metric}: FAILED after ${fmt(r.value)} ms: ${r.error}` : `${s.name}: ${r.metric} = ${fmt(r.value)} ${r.unit} (target <= ${fmt(r.target ?? NaN)})`)),
);
const failed = summary.filter((s) => !s.ok);
for (const m of missed) process.stdout.write(`MISSED  ${m}\n`);
for (const f of failed) process.stdout.write(`FAILED  ${f.name}\n`);
if (!missed.length && !failed.length) process.stdout.write("all targets met\n");
process.stdout.write(`(${summary.map((s) => `${s.name} ${fmt(s.seconds)} s`).join(", ")})\n`);
process.exit(failed.length ? 1 : 0);
