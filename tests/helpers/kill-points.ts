/**
 * The kill -9 loop of tests/db/kill-*.test.ts: a writer's process runs once to count its write
 * steps (tests/helpers/kill-switch.cjs), then once per kill point, SIGKILLed just before that
 * step. Kill points are spread over every step of the write (evenly, each shifted by a seeded
 * random amount), so the first and last steps are among them.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { mulberry32 } from "./prng";

export const REPO = path.resolve(import.meta.dirname, "../..");
export const KILL_SWITCH = path.join(REPO, "tests", "helpers", "kill-switch.cjs");
export const CLI = path.join(REPO, "bin", "workbench.cjs");
/** At least this many kill points per writer (issue 31). */
export const KILL_POINTS = 50;

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `node --require kill-switch <args>`, killed before step `killAt` (0: never). */
export function runWriter(args: string[], env: Record<string, string>, killAt: number, countFile?: string): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--require", KILL_SWITCH, ...args], {
      cwd: REPO,
      env: { ...process.env, ...env, WORKBENCH_KILL_AT: String(killAt), WORKBENCH_KILL_COUNT: countFile ?? "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Runs the writer to its end and returns how many write steps it took. */
export async function countSteps(args: string[], env: Record<string, string>): Promise<{ steps: number; result: ChildResult }> {
  const countFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "wb-kill-")), "steps");
  const result = await runWriter(args, env, 0, countFile);
  expect(result.code, result.stderr).toBe(0);
  const steps = Number(fs.readFileSync(countFile, "utf8"));
  fs.rmSync(path.dirname(countFile), { recursive: true, force: true });
  return { steps, result };
}

/** `n` kill points over steps 1..total: evenly spread, each shifted within its slot by a seeded random amount. */
export function killPoints(total: number, seed: number, n = KILL_POINTS): number[] {
  const rand = mulberry32(seed);
  const points: number[] = [];
  for (let i = 0; i < n; i++) {
    const lo = 1 + Math.floor((i * total) / n);
    const hi = Math.max(lo, Math.floor(((i + 1) * total) / n));
    points.push(lo + Math.floor(rand() * (hi - lo + 1)));
  }
  points[0] = 1;
  points[n - 1] = total;
  return points;
}

/** Runs `fn` for every item, at most `limit` at a time (the machine has two cores). */
export async function eachBounded<T>(items: T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** Files left beside `file` by an atomic write that was killed before its rename. */
export const tempSiblings = (file: string): string[] => (fs.existsSync(path.dirname(file)) ? fs.readdirSync(path.dirname(file)).filter((n) => n.startsWith(`${path.basename(file)}.tmp.`)) : []);

/**
 * `entry` (TypeScript) bundled into one CommonJS file under the repository's .tmp/, with the
 * packages it uses except those that load native code or WebAssembly next to them: a writer
 * started 50 times then starts in 0.4 s of CPU instead of 1.3 s through tsx (the ESM loader and
 * the per-file transforms were most of it). The entry must not use top-level await. The writer
 * finds the app through WORKBENCH_APP_ROOT (set it in runWriter's env).
 */
export async function bundleWriter(entry: string): Promise<{ file: string; dispose: () => void }> {
  const { build } = await import("esbuild");
  fs.mkdirSync(path.join(REPO, ".tmp"), { recursive: true });
  const dir = fs.mkdtempSync(path.join(REPO, ".tmp", "kill-writer-"));
  const file = path.join(dir, `${path.basename(entry, ".ts")}.cjs`);
  await build({
    entryPoints: [entry],
    outfile: file,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    // Some packages ship a UMD main that requires its own files at run time.
    mainFields: ["module", "main"],
    external: ["better-sqlite3", "pg", "@prisma/client", "@prisma/adapter-*", "esbuild"],
    define: { "import.meta.url": "__wbImportMetaUrl", "import.meta.dirname": "__dirname" },
    banner: { js: 'const __wbImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
    // import() becomes require() when it runs: still lazy, without the ESM loader.
    supported: { "dynamic-import": false },
    logLevel: "warning",
  });
  return { file, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
