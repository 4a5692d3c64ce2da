/** Shared by the benchmark scripts and the runner: result records, statistics, tables. */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
/** Gitignored: generated projects, result files. */
export const OUT_DIR = path.join(BENCH_DIR, "out");

export interface BenchResult {
  metric: string;
  value: number;
  unit: string;
  /** Upper bound the value must not exceed (or the exact value, with `exact`); null for figures reported for information. */
  target: number | null;
  /** The value must equal the target (a ratio or a yes/no), not merely stay under it. */
  exact?: boolean;
  /** value <= target; null when there is no target; false when the measured code failed. */
  pass: boolean | null;
  /** Set when the measured operation threw: value is then the time until it failed. */
  error?: string;
}

export function result(metric: string, value: number, unit: string, target: number | null = null): BenchResult {
  const v = Math.round(value * 100) / 100;
  return { metric, value: v, unit, target, pass: target === null ? null : v <= target };
}

/** The measured operation threw; recorded as a miss with the first line of the error. */
export function failure(metric: string, elapsedMs: number, target: number | null, e: unknown): BenchResult {
  // Prisma errors span several lines (call site, code frame, message): keep the message.
  const lines = (e instanceof Error ? e.message : String(e))
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const meaningful = lines.filter((l) => !/^Invalid `.*` invocation/.test(l) && !/^(→|\d+\s|\/)/.test(l) && !/^[\w./-]+\.ts:\d+/.test(l));
  const code = e && typeof e === "object" && typeof (e as { code?: unknown }).code === "string" ? `${(e as { code: string }).code}: ` : "";
  const error = code + (meaningful[meaningful.length - 1] ?? lines[0] ?? "error");
  return { metric, value: Math.round(elapsedMs * 100) / 100, unit: "ms", target, pass: false, error: error.slice(0, 300) };
}

export function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  // Nearest rank: p95 of 200 samples is the 190th smallest.
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1));
  return s[i]!;
}

export const median = (xs: number[]): number => quantile(xs, 0.5);

export function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Math.abs(v) >= 100) return Math.round(v).toLocaleString("en-US");
  return v.toFixed(Math.abs(v) >= 10 ? 1 : 2);
}

export function verdict(r: BenchResult): string {
  if (r.error) return "FAILED";
  return r.pass === null ? "" : r.pass ? "ok" : "MISSED";
}

/** A plain-text table; the first column left-aligned, the others right-aligned. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

export function resultsTable(results: BenchResult[]): string {
  const t = table(
    ["metric", "value", "unit", "target", "result"],
    results.map((r) => [r.metric, fmt(r.value), r.unit, r.target === null ? "" : `${r.exact ? "=" : "<="} ${fmt(r.target)}`, verdict(r)]),
  );
  const errors = results.filter((r) => r.error).map((r) => `FAILED  ${r.metric}: ${r.error}`);
  return errors.length ? `${t}\n\n${errors.join("\n")}` : t;
}

export function writeResults(name: string, results: BenchResult[]): string {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const file = path.join(OUT_DIR, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(results, null, 2) + "\n");
  return file;
}

/** A non-negative integer setting from the environment (BENCH_RUNS=3 …), or its default. */
export function envInt(name: string, dflt: number): number {
  const v = process.env[name];
  if (v === undefined || v === "") return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer`);
  return n;
}
