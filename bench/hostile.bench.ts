/**
 * Each trap of the hostile repository (tests/helpers/hostile-repo.ts), alone in a copy of the
 * sample project, through the CLI and (with a production build) the server: how long each
 * step takes, its peak memory, whether it ended, and whether anything from outside the
 * project showed up. Run it against another checkout to get the "before" column:
 *
 *   npx tsx bench/hostile.bench.ts                          # this checkout
 *   BENCH_APP_ROOT=/path/to/old/checkout npx tsx bench/hostile.bench.ts
 *   BENCH_TRAPS=fifo,symlink-loop npx tsx bench/hostile.bench.ts
 *   BENCH_NO_CLI=1 / BENCH_NO_SERVER=1 leave out one half.
 *
 * Every command and request is bounded (BENCH_STEP_TIMEOUT_S, 60 s by default): a hang is
 * reported as such and the process (server included) is killed and restarted.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TRAP_IDS, buildHostileRepo, treeDigest, type HostileRepo, type TrapId } from "../tests/helpers/hostile-repo";
import { removeTempDirs } from "../tests/helpers/project-builder";
import { BENCH_DIR, result, table, writeResults, type BenchResult } from "./report";

const APP_ROOT = path.resolve(process.env.BENCH_APP_ROOT ?? path.dirname(BENCH_DIR));
const CLI = path.join(APP_ROOT, "bin", "workbench.cjs");
const STEP_S = Number(process.env.BENCH_STEP_TIMEOUT_S ?? 60);
const traps = (process.env.BENCH_TRAPS ? process.env.BENCH_TRAPS.split(",") : TRAP_IDS) as TrapId[];

interface Step {
  trap: TrapId;
  where: "cli" | "server";
  step: string;
  outcome: string;
  seconds: number;
  peakMb: number;
  leaked: boolean;
}
const steps: Step[] = [];
const log = (s: string) => process.stdout.write(`${s}\n`);

/** The command through GNU time, killed after the step timeout. */
function timed(args: string[], env: NodeJS.ProcessEnv): { code: number | null; seconds: number; peakMb: number; stdout: string; stderr: string; hung: boolean } {
  const t0 = performance.now();
  const r = spawnSync("/usr/bin/time", ["-f", "%M", "timeout", "-s", "KILL", String(STEP_S), process.execPath, CLI, ...args], { cwd: APP_ROOT, env, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  const seconds = (performance.now() - t0) / 1000;
  const lines = (r.stderr ?? "").trimEnd().split("\n");
  const peakKb = Number(lines[lines.length - 1]) || 0;
  // timeout(1) with -s KILL: the child dies by signal 9, which time(1) reports as exit 137.
  const hung = r.status === 137 || seconds >= STEP_S;
  return { code: r.status, seconds, peakMb: peakKb / 1024, stdout: r.stdout ?? "", stderr: lines.slice(0, -1).join("\n"), hung };
}

function dbLeaks(dataDir: string, secret: string): boolean {
  for (const f of fs.existsSync(dataDir) ? fs.readdirSync(dataDir) : []) {
    const p = path.join(dataDir, f);
    if (fs.statSync(p).isFile() && fs.readFileSync(p).includes(secret)) return true;
  }
  return false;
}

function cliSteps(trap: TrapId, repo: HostileRepo): void {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-hostile-bench-"));
  const env = { ...process.env, WORKBENCH_DATA_DIR: dataDir, DATABASE_URL: "" };
  spawnSync(process.execPath, [path.join(APP_ROOT, "scripts", "setup.mjs")], { cwd: APP_ROOT, env, stdio: "ignore" });
  const outsideBefore = JSON.stringify(treeDigest(repo.outside));
  const record = (step: string, r: ReturnType<typeof timed>, extra = "", leakedHere = false) => {
    const outcome = r.hung
      ? `HUNG (killed after ${STEP_S} s)`
      : r.code === 0
        ? `exit 0${extra}`
        : `exit ${r.code}: ${(r.stderr.split("\n").find((l) => /error|failed|exceeded/i.test(l)) ?? r.stderr.split("\n").pop() ?? "").slice(0, 90)}`;
    const leaked = leakedHere || r.stdout.includes(repo.secret) || dbLeaks(dataDir, repo.secret) || JSON.stringify(treeDigest(repo.outside)) !== outsideBefore;
    steps.push({ trap, where: "cli", step, outcome, seconds: r.seconds, peakMb: r.peakMb, leaked });
    log(`  ${trap} cli ${step}: ${outcome} in ${r.seconds.toFixed(2)} s`);
  };
  const idx = timed(["index", repo.root, "--json"], env);
  const warnings = /"warnings":(\d+)/.exec(idx.stdout)?.[1];
  record("index", idx, warnings ? ` (${warnings} warnings)` : "");
  const spec = (s: string) => path.join(repo.root, s);
  const reduceSpec: Partial<Record<TrapId, string>> = {
    "deep-seat": repo.specs.deepSeat,
    "torn-log": repo.specs.bigLog,
    "torn-tail": repo.specs.tornTail,
    "link-out-file": repo.specs.linkOut,
    "link-out-dir": repo.specs.escape,
    fifo: ".opencode/specs/hostile/fifo-run",
  };
  const rs = reduceSpec[trap];
  if (rs) {
    const stateLog = path.join(spec(rs), "context", "deep-context-state.jsonl");
    const size = () => {
      if (!fs.existsSync(stateLog)) return "none";
      const text = fs.readFileSync(stateLog, "utf8");
      return `${text.split("\n").filter((l) => l.trim()).length} lines, ${Buffer.byteLength(text)} B`;
    };
    const before = size();
    const r = timed(["reduce", spec(rs)], env);
    record("reduce", r, trap === "torn-log" || trap === "torn-tail" ? ` (log ${before} -> ${size()})` : "");
  }
  if (["symlink-loop", "fifo", "socket", "huge-markdown", "deep-markdown", "binary", "hard-link", "link-out-file", "link-out-dir", "unreadable", "long-path"].includes(trap)) {
    record("loader", timed(["loader", "fix the auth session loop pipe socket huge secret handling in the login flow", "--project", repo.root], env));
  }
  if (trap === "terminal-escapes") {
    const r = timed(["load-context", "ESC-1", "--project", repo.root], env);
    const raw = /[\u001b\u0007\u009b]/.test(r.stdout);
    record("load-context", r, raw ? " (raw escapes printed)" : " (escapes shown, not sent)");
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}

// ---- server

interface Server {
  base: string;
  child: ChildProcess;
}

async function startServer(dataDir: string, port: number): Promise<Server> {
  // Its own process group: a hung or dying server is killed with every child it started.
  const child = spawn(process.execPath, [CLI, "serve", "--port", String(port)], {
    cwd: APP_ROOT,
    env: { ...process.env, WORKBENCH_DATA_DIR: dataDir, DATABASE_URL: "", WORKBENCH_MODE: "local" },
    stdio: "ignore",
    detached: true,
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/api/ready`, { signal: AbortSignal.timeout(2000) })).ok) return { base, child };
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await killServer({ base, child });
  throw new Error("the server did not start");
}

async function killServer(server: Server): Promise<void> {
  const exited = new Promise((r) => (server.child.exitCode !== null ? r(null) : server.child.once("exit", r)));
  try {
    process.kill(-server.child.pid!, "SIGKILL");
  } catch {
    // already gone
  }
  await exited;
}

/** Resident memory of the server's whole process group (`workbench serve` and the `next start` it runs), in MB. */
function groupRssMb(pgid: number): number {
  let kb = 0;
  for (const pid of fs.readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      // Field 5 of /proc/<pid>/stat is the process group (after the parenthesised command name).
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) !== pgid) continue;
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // the process ended meanwhile
    }
  }
  return kb / 1024;
}

/** Samples the group's memory every 200 ms; `take()` gives the peak since the last take. */
function memorySampler(pgid: () => number): { take(): number; stop(): void; overall: () => number } {
  let peak = 0;
  let overall = 0;
  const timer = setInterval(() => {
    const mb = groupRssMb(pgid());
    peak = Math.max(peak, mb);
    overall = Math.max(overall, mb);
  }, 200);
  return {
    take() {
      const p = Math.max(peak, groupRssMb(pgid()));
      peak = 0;
      return p;
    },
    stop: () => clearInterval(timer),
    overall: () => overall,
  };
}

async function get(url: string, init?: RequestInit): Promise<{ status: number; bytes: number; seconds: number; error?: string; text: string }> {
  const t0 = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(STEP_S * 1000) });
    const text = await res.text();
    return { status: res.status, bytes: Buffer.byteLength(text), seconds: (performance.now() - t0) / 1000, text };
  } catch (e) {
    return { status: 0, bytes: 0, seconds: (performance.now() - t0) / 1000, error: e instanceof Error ? e.name : String(e), text: "" };
  }
}

/** A search answer echoes the query (the marker itself): it leaks only when it finds something. */
function leaks(step: string, text: string, secret: string): boolean {
  if (!step.startsWith("search")) return text.includes(secret);
  try {
    return (JSON.parse(text) as { total?: number }).total !== 0;
  } catch {
    return false;
  }
}

async function serverSteps(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-hostile-serve-"));
  spawnSync(process.execPath, [path.join(APP_ROOT, "scripts", "setup.mjs")], { cwd: APP_ROOT, env: { ...process.env, WORKBENCH_DATA_DIR: dataDir, DATABASE_URL: "" }, stdio: "ignore" });
  // Every (re)start takes two fresh ports (the dashboard's and the co-editing server's).
  let port = 3300 + 2 * Math.floor(Math.random() * 250);
  let server = await startServer(dataDir, port);
  const memory = memorySampler(() => server.child.pid!);
  const ensureUp = async (): Promise<boolean> => {
    const ready = await get(`${server.base}/api/ready`);
    if (ready.status === 200) return true;
    await killServer(server);
    port += 2;
    server = await startServer(dataDir, port);
    return false;
  };
  for (const trap of traps) {
    const repo = buildHostileRepo({ traps: [trap] });
    const add = async (step: string, r: Awaited<ReturnType<typeof get>>, extra = "") => {
      const peakMb = memory.take();
      const alive = await ensureUp();
      const outcome = r.error ? `${r.error === "TimeoutError" ? `HUNG (no answer in ${STEP_S} s)` : r.error}` : `${r.status}, ${(r.bytes / 1024).toFixed(0)} KB${extra}`;
      steps.push({ trap, where: "server", step, outcome: alive ? outcome : `${outcome}; server down, restarted`, seconds: r.seconds, peakMb, leaked: leaks(step, r.text, repo.secret) });
      log(`  ${trap} server ${step}: ${steps[steps.length - 1]!.outcome} in ${r.seconds.toFixed(2)} s`);
    };
    const created = await get(`${server.base}/api/v1/projects`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ path: repo.root }) });
    if (created.status !== 201) {
      await add("add + index", created);
      continue;
    }
    const { project, job } = JSON.parse(created.text) as { project: { id: string }; job: { id: string } };
    const t0 = performance.now();
    let status = "running";
    while (status !== "succeeded" && status !== "failed" && performance.now() - t0 < STEP_S * 1000) {
      await new Promise((r) => setTimeout(r, 250));
      const j = await get(`${server.base}/api/v1/jobs/${job.id}`);
      if (j.status !== 200) break;
      status = (JSON.parse(j.text) as { job: { status: string } }).job.status;
    }
    await add("index job", { status: 200, bytes: 0, seconds: (performance.now() - t0) / 1000, text: "", ...(status === "succeeded" || status === "failed" ? {} : { error: "TimeoutError" }) }, ` (${status})`);
    const pid = project.id;
    await add("project page", await get(`${server.base}/projects/${pid}`));
    await add("knowledge page", await get(`${server.base}/projects/${pid}/knowledge`));
    if (["fifo", "socket", "link-out-file", "hard-link", "huge-markdown", "symlink-loop"].includes(trap)) {
      const target = { fifo: "docs/fifo.md", socket: "docs/socket.md", "link-out-file": "docs/leak.md", "hard-link": "docs/hardlink.md", "huge-markdown": "docs/huge.md", "symlink-loop": "docs/loop/self/self/_index.md" }[
        trap as string
      ]!;
      await add(`evidence ${target}`, await get(`${server.base}/api/v1/projects/${pid}/evidence?path=${encodeURIComponent(target)}`));
    }
    if (["torn-log", "deep-seat", "torn-tail", "link-out-file", "link-out-dir", "fifo"].includes(trap)) {
      const runs = await get(`${server.base}/api/v1/projects/${pid}/runs`);
      const list = runs.status === 200 ? ((JSON.parse(runs.text) as { runs: { id: string; relPath: string }[] }).runs ?? []) : [];
      for (const run of list.filter((r) => r.relPath.includes("/hostile/"))) await add(`run page ${run.relPath.split("/")[3]}`, await get(`${server.base}/projects/${pid}/runs/${run.id}`));
    }
    await add("memory page", await get(`${server.base}/projects/${pid}/memory`));
    await add("search for the outside marker", await get(`${server.base}/api/v1/search?q=${encodeURIComponent(repo.secret)}`), "");
  }
  memory.stop();
  log(`server peak RSS (all its processes) over the whole run: ${memory.overall().toFixed(0)} MB`);
  await killServer(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  log(`app: ${APP_ROOT}; traps: ${traps.join(", ")}; each step bounded to ${STEP_S} s`);
  for (const trap of process.env.BENCH_NO_CLI === "1" ? [] : traps) {
    const repo = buildHostileRepo({ traps: [trap] });
    cliSteps(trap, repo);
    removeTempDirs();
  }
  if (fs.existsSync(path.join(APP_ROOT, ".next", "BUILD_ID")) && process.env.BENCH_NO_SERVER !== "1") await serverSteps();
  else log("no production build in the app root (or BENCH_NO_SERVER=1): server steps skipped");
  removeTempDirs();
  log(
    table(
      ["trap", "where", "step", "outcome", "s", "peak MB", "outside read"],
      steps.map((s) => [s.trap, s.where, s.step, s.outcome, s.seconds.toFixed(2), s.peakMb.toFixed(0), s.leaked ? "LEAKED" : "no"]),
    ),
  );
  const results: BenchResult[] = [
    result("steps that hung", steps.filter((s) => s.outcome.includes("HUNG")).length, "count", 0),
    result("steps that read outside the project", steps.filter((s) => s.leaked).length, "count", 0),
    result("server restarts (the server went down)", steps.filter((s) => s.outcome.includes("restarted")).length, "count", 0),
    result("slowest step", Math.max(0, ...steps.map((s) => s.seconds)), "s"),
    ...steps.map((s) => result(` ${s.trap} ${s.where} ${s.step}`, s.seconds, "s")),
  ];
  writeResults("hostile", results);
}

await main();
