/**
 * Indexer and inventory benchmark (a script, not a vitest suite):
 *
 *   tsx bench/index.bench.ts
 *
 * Generates (or reuses from bench/out/projects/) a synthetic project, copies it to a
 * temporary folder, indexes it into a fresh temporary database and measures:
 *   - full index: addProject + indexProject from an empty project (median of 5), every
 *     indexer phase shown for the median run, adding up to its total;
 *   - peak RSS of a full index: the production CLI (`workbench index`, compiled as setup leaves
 *     it) indexing the project into a fresh database in its own process (median of 5). The
 *     bench's own process (tsx, the harness) is also reported, for reference only;
 *   - re-index with nothing changed (median of 5);
 *   - re-index after one work session's state.json changed (median of 5);
 *   - re-index after one product-knowledge document changed (median of 5);
 *   - listTopics(page 1, 100 rows) in-process: median and p95 of 200 calls after 10 warm-ups;
 *   - with BENCH_BASE_URL set, GET {BENCH_BASE_URL}/api/v1/projects/<id>/topics the same way.
 * Results go to bench/out/index.json.
 *
 * Environment: BENCH_SESSIONS (5000), BENCH_DOCUMENTS (5000), BENCH_TICKETS (500),
 * BENCH_SEED (1), BENCH_RUNS (5), BENCH_CALLS (200), BENCH_KEEP=1 keeps the temp folders,
 * BENCH_DATABASE_URL to bench against another database (default: a temp SQLite file),
 * BENCH_BASE_URL / BENCH_PROJECT_ID for the HTTP measurement.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { IndexStats, JobPhase } from "../lib/db/dto";
import { closeDb, getDb } from "../lib/db/client";
import { deleteProject } from "../lib/db/repositories/projects";
import { listTopics } from "../lib/db/repositories/topic-pages";
import { indexProject } from "../lib/indexer/index-project";
import { addProject } from "../lib/projects/add-project";
import { cachedProject } from "./generate-project";
import { BENCH_DIR, failure, fmt, median, quantile, result, resultsTable, table, writeResults, type BenchResult, envInt } from "./report";

// Issue 18's targets (2-core machine, production settings, medians of 5).
const TARGET_FULL_MS = 12_000;
const TARGET_FULL_SEARCH_MS = 3_000;
const TARGET_FULL_RSS_MB = 300;
const TARGET_NOCHANGE_MS = 500;
const TARGET_ONE_CHANGE_MS = 1_000;
const TARGET_INVENTORY_P50_MS = 50;

const APP_ROOT = path.dirname(BENCH_DIR);

const P = {
  sessions: envInt("BENCH_SESSIONS", 5000),
  documents: envInt("BENCH_DOCUMENTS", 5000),
  tickets: envInt("BENCH_TICKETS", 500),
  seed: envInt("BENCH_SEED", 1),
};
const RUNS = Math.max(1, envInt("BENCH_RUNS", 5));
const CALLS = Math.max(1, envInt("BENCH_CALLS", 200));
const WARMUPS = 10;

const log = (s = "") => process.stdout.write(s + "\n");
const now = () => performance.now();

// ---------------------------------------------------------------------------
// Project fixture: generated once per parameter set, copied per run

function copyTree(src: string, dst: string): void {
  try {
    execFileSync("cp", ["-a", src, dst], { stdio: ["ignore", "ignore", "pipe"] });
  } catch {
    fs.cpSync(src, dst, { recursive: true, preserveTimestamps: true });
  }
}

// ---------------------------------------------------------------------------
// Phase timing through onProgress

/**
 * Every phase indexProject reports (JobPhase minus "queued", which only the job queue sets),
 * plus "init" (before the first report). A phase lasts from its first report to the next
 * phase's, and the last one to the end, so a run's phases add up to its total exactly.
 */
const PHASE_ORDER = ["init", "freshness", "config", "listing", "sources", "documents", "git", "runs", "saving", "search", "finish"] as const;
type PhaseName = (typeof PHASE_ORDER)[number];
type Breakdown = Record<PhaseName, number>;

/** The phases of the last timedIndex call, also when it failed (up to the failure). */
let lastPhases: Breakdown | null = null;

/** Times one indexProject call: each phase lasts from its first progress call to the next phase's. */
async function timedIndex(projectId: string): Promise<{ ms: number; stats: IndexStats; phases: Breakdown }> {
  const marks: { phase: JobPhase; t: number }[] = [];
  const onProgress = (phase: JobPhase) => {
    if (marks[marks.length - 1]?.phase !== phase) marks.push({ phase, t: now() });
  };
  const start = now();
  let stats: IndexStats;
  let end = start;
  try {
    stats = await indexProject(projectId, onProgress);
  } finally {
    end = now();
    lastPhases = breakdownOf(marks, start, end);
  }
  return { ms: end - start, stats, phases: lastPhases };
}

function breakdownOf(marks: { phase: JobPhase; t: number }[], start: number, end: number): Breakdown {
  const phases = Object.fromEntries(PHASE_ORDER.map((p) => [p, 0])) as Breakdown;
  phases.init = (marks[0]?.t ?? end) - start;
  marks.forEach((m, i) => {
    const until = marks[i + 1]?.t ?? end;
    const name = m.phase === "done" ? "finish" : m.phase;
    // A phase the table does not know would silently drop its time from the total.
    if (!(PHASE_ORDER as readonly string[]).includes(name)) throw new Error(`index.bench: unknown indexer phase "${m.phase}"; add it to PHASE_ORDER`);
    phases[name as PhaseName] += until - m.t;
  });
  return phases;
}

/**
 * The run whose total is the median (the lower middle for an even count). Its phases are
 * shown, rather than a median per phase, so the column adds up to the median it reports.
 */
function medianRun<T extends { ms: number }>(runs: T[]): T {
  const sorted = [...runs].sort((a, b) => a.ms - b.ms);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

function breakdownTable(cols: { name: string; b: Breakdown; total: number }[]): string {
  for (const c of cols) {
    const sum = PHASE_ORDER.reduce((s, p) => s + c.b[p], 0);
    if (Math.abs(sum - c.total) > 0.5) throw new Error(`index.bench: the ${c.name} phases add up to ${fmt(sum)} ms, not its ${fmt(c.total)} ms total`);
  }
  return table(
    ["phase (ms)", ...cols.map((c) => c.name)],
    [...PHASE_ORDER.map((p) => [p, ...cols.map((c) => `${fmt(c.b[p])} (${Math.round((100 * c.b[p]) / (c.total || 1))}%)`)]), ["total", ...cols.map((c) => fmt(c.total))]],
  );
}

// ---------------------------------------------------------------------------
// Latency sampling

async function sample(fn: () => Promise<void>): Promise<{ p50: number; p95: number; max: number }> {
  for (let i = 0; i < WARMUPS; i++) await fn();
  const xs: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t = now();
    await fn();
    xs.push(now() - t);
  }
  return { p50: median(xs), p95: quantile(xs, 0.95), max: Math.max(...xs) };
}

/** fetch, retried on network errors (a busy server, or a keep-alive socket it just closed). */
async function fetchRetry(url: string, init?: RequestInit, attempts = 5): Promise<Response> {
  for (let i = 1; ; i++) {
    try {
      return await fetch(url, init);
    } catch (e) {
      if (i >= attempts) {
        const cause = e instanceof Error && e.cause instanceof Error ? ` (${e.cause.message})` : "";
        throw new Error(`${init?.method ?? "GET"} ${url}: ${e instanceof Error ? e.message : String(e)}${cause}`, { cause: e });
      }
      await new Promise((res) => setTimeout(res, 1000 * i));
    }
  }
}

async function getJson(url: string, init?: RequestInit): Promise<{ status: number; body: unknown }> {
  const r = await fetchRetry(url, init);
  const text = await r.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    /* not JSON: kept as text for the error message */
  }
  return { status: r.status, body };
}

function errorText(res: { status: number; body: unknown }): string {
  const e = (res.body as { error?: { code?: string; message?: string } } | null)?.error;
  return e ? `${res.status} ${e.code ?? ""}: ${e.message ?? ""}` : `${res.status} ${String(typeof res.body === "string" ? res.body : JSON.stringify(res.body)).slice(0, 200)}`;
}

interface ServerJob {
  id: string;
  status: string;
  error: string | null;
}

/**
 * The server has its own database, so the project must be indexed there: BENCH_PROJECT_ID,
 * else the project already registered for this folder (GET /api/v1/projects), else it is
 * registered with POST /api/v1/projects, which starts indexing; the job is polled at
 * /api/v1/jobs/<id> until it ends (up to 10 minutes).
 */
async function serverProjectId(base: string, root: string): Promise<string> {
  if (process.env.BENCH_PROJECT_ID) return process.env.BENCH_PROJECT_ID;
  const listed = await getJson(`${base}/api/v1/projects`);
  if (listed.status !== 200) throw new Error(`GET /api/v1/projects: ${errorText(listed)}`);
  const projects = (listed.body as { projects?: { id: string; rootPath: string; topicCount: number; latestJob: ServerJob | null }[] }).projects ?? [];
  let project = projects.find((p) => p.rootPath === root);
  let job: ServerJob | null = project?.latestJob ?? null;
  if (!project) {
    const created = await getJson(`${base}/api/v1/projects`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ path: root }) });
    if (created.status !== 201) throw new Error(`POST /api/v1/projects: ${errorText(created)}`);
    ({ project, job } = created.body as { project: (typeof projects)[number]; job: ServerJob });
    log(`server: registered ${root} as project ${project.id}; indexing (job ${job.id})`);
  } else if (project.topicCount === 0 && !(job && (job.status === "queued" || job.status === "running"))) {
    const started = await getJson(`${base}/api/v1/projects/${project.id}/index`, { method: "POST" });
    if (started.status !== 202) throw new Error(`POST /api/v1/projects/${project.id}/index: ${errorText(started)}`);
    job = (started.body as { job: ServerJob }).job;
  }
  const deadline = Date.now() + 600_000;
  while (job && (job.status === "queued" || job.status === "running")) {
    if (Date.now() > deadline) throw new Error(`server job ${job.id} still ${job.status} after 10 minutes`);
    await new Promise((res) => setTimeout(res, 1000));
    const polled = await getJson(`${base}/api/v1/jobs/${job.id}`);
    if (polled.status !== 200) throw new Error(`GET /api/v1/jobs/${job.id}: ${errorText(polled)}`);
    job = (polled.body as { job: ServerJob }).job;
  }
  if (job && job.status === "failed") throw new Error(`the server's index job failed: ${job.error ?? "no message"}`);
  return project.id;
}

// ---------------------------------------------------------------------------

type Timed = Awaited<ReturnType<typeof timedIndex>>;

// ---------------------------------------------------------------------------

function appendUpdate(file: string, note: string): void {
  const state = JSON.parse(fs.readFileSync(file, "utf8")) as { updates?: unknown[]; updated_at?: string };
  const ts = new Date(Date.UTC(2026, 11, 31)).toISOString().replace(/\.\d{3}Z$/, "Z");
  state.updates = [...(state.updates ?? []), { timestamp: ts, note }];
  state.updated_at = ts;
  fs.writeFileSync(file, JSON.stringify(state, null, 2) + "\n");
}

function dirSize(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    n += e.isDirectory() ? dirSize(p) : fs.statSync(p).size;
  }
  return n;
}

/** Peak RSS (MB) of `workbench index <project>` into an empty database of its own. */
function cliFullIndexPeakMb(projectDir: string, dataDir: string): number {
  const rssFile = path.join(dataDir, "max-rss");
  fs.mkdirSync(dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, WORKBENCH_DATA_DIR: dataDir, BENCH_MAX_RSS_FILE: rssFile };
  delete env.DATABASE_URL;
  const r = spawnSync(process.execPath, ["--require", path.join(BENCH_DIR, "max-rss-preload.cjs"), path.join(APP_ROOT, "bin", "workbench.cjs"), "index", projectDir], {
    cwd: APP_ROOT,
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`workbench index exited ${r.status}: ${r.stderr.trim().split("\n").slice(-3).join(" / ")}`);
  const kib = Number(fs.readFileSync(rssFile, "utf8"));
  fs.rmSync(dataDir, { recursive: true, force: true });
  return kib / 1024;
}

async function main(): Promise<void> {
  const results: BenchResult[] = [];
  log(`# index.bench: ${P.sessions} sessions, ${P.documents} documents, ${P.tickets} tickets, seed ${P.seed}`);

  // 1. Fixture
  // Generated (when not cached yet) in a child process: maxRSS is this process's high-water
  // mark, and generating 23,500 files here counted towards the full index's peak (461 MB
  // against 395 MB with the project cached).
  let t = now();
  const generator = pathToFileURL(path.join(BENCH_DIR, "generate-project.ts")).href;
  const generated = spawnSync(process.execPath, ["--import", "tsx", "-e", `import(${JSON.stringify(generator)}).then((m) => m.cachedProject(${JSON.stringify(P)}))`], { cwd: path.dirname(BENCH_DIR), stdio: "inherit" });
  if (generated.status !== 0) throw new Error(`generating the bench project failed (exit ${generated.status})`);
  const fixture = cachedProject(P);
  if (fixture.generatedMs !== null) throw new Error("the bench project was generated in the bench's own process");
  log(`project: at ${fixture.dir} (${fmt((now() - t) / 1000)} s to find or generate it)`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "workbench-bench-"));
  const projectDir = path.join(tmp, "project");
  const dataDir = path.join(tmp, "data");
  t = now();
  copyTree(fixture.dir, projectDir);
  log(`copied to ${projectDir} in ${fmt((now() - t) / 1000)} s`);

  // 2. Fresh database (a temp SQLite file unless BENCH_DATABASE_URL says otherwise)
  process.env.WORKBENCH_DATA_DIR = dataDir;
  if (process.env.BENCH_DATABASE_URL) process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
  else delete process.env.DATABASE_URL;
  t = now();
  const db = await getDb();
  results.push(result("db open + migrate (fresh)", now() - t, "ms"));

  const breakdowns: { name: string; b: Breakdown; total: number }[] = [];
  /** Runs one measured step; a failure of the code under test is recorded, not thrown. */
  const step = async (metric: string, target: number | null, fn: () => Promise<void>): Promise<boolean> => {
    const t0 = now();
    try {
      await fn();
      return true;
    } catch (e) {
      const f = failure(metric, now() - t0, target, e);
      log(`FAILED ${metric} after ${fmt(f.value)} ms: ${f.error}`);
      results.push(f);
      return false;
    }
  };

  try {
    // 3. Full index
    let projectId = "";
    let full: Timed | null = null;
    const fullOk = await step("full index (addProject + indexProject, median)", TARGET_FULL_MS, async () => {
      // Each run starts from an empty project: the previous one is removed with its rows.
      const runs: (Timed & { addMs: number })[] = [];
      let rss = 0;
      for (let i = 0; i < RUNS; i++) {
        if (projectId) await deleteProject(projectId);
        const t0 = now();
        const project = await addProject({ path: projectDir });
        projectId = project.id;
        const addMs = now() - t0;
        const r = await timedIndex(project.id);
        // maxRSS is a high-water mark: after the first run it can only say "no higher".
        if (i === 0) rss = process.resourceUsage().maxRSS / 1024;
        runs.push({ ...r, ms: addMs + r.ms, addMs, phases: { ...r.phases, init: r.phases.init + addMs } });
      }
      full = medianRun(runs);
      const warnings = await db.indexWarning.count({ where: { projectId } });
      log(`full index: ${JSON.stringify(full.stats)} (runs: ${runs.map((r) => fmt(r.ms)).join(", ")} ms)`);
      if (warnings > 0) {
        const some = await db.indexWarning.findMany({ where: { projectId }, take: 5, select: { message: true } });
        log(`  ${warnings} index warnings, e.g.:\n${some.map((w) => `    ${w.message}`).join("\n")}`);
      }
      results.push(result("full index (addProject + indexProject, median)", full.ms, "ms", TARGET_FULL_MS));
      for (const p of PHASE_ORDER) results.push(result(`  full index phase: ${p}${p === "init" ? " (incl. addProject)" : ""}`, full.phases[p], "ms", p === "search" ? TARGET_FULL_SEARCH_MS : null));
      results.push(result("  files indexed", full.stats.filesTotal, "files"));
      results.push(result("  topics", full.stats.topics, "topics"));
      results.push(result("  search documents", full.stats.documents, "docs"));
      results.push(result("  git commits", full.stats.commits, "commits"));
      results.push(result("  git branches", full.stats.branches, "branches"));
      results.push(result("  index warnings", warnings, "warnings"));
      results.push(result("  peak RSS of the bench process during its first full index (tsx, for reference)", rss, "MB"));
      breakdowns.push({ name: "full", b: full.phases, total: full.ms });
    });

    // 3b. Peak RSS of a full index as users run it: the compiled CLI in a process of its own.
    // (maxRSS is a whole-process high-water mark: in this process it also counts tsx and the harness.)
    await step("peak RSS of a full index (workbench index, median)", TARGET_FULL_RSS_MB, async () => {
      // Compiled, as setup leaves it (otherwise the CLI would run from its sources).
      const { cliBuildIsCurrent, buildCli } = (await import(pathToFileURL(path.join(APP_ROOT, "scripts", "build-cli.mjs")).href)) as { cliBuildIsCurrent(): boolean; buildCli(): Promise<void> };
      if (!cliBuildIsCurrent()) await buildCli();
      const peaks: number[] = [];
      for (let i = 0; i < RUNS; i++) peaks.push(cliFullIndexPeakMb(projectDir, path.join(tmp, `cli-data-${i}`)));
      log(`workbench index peak RSS: ${peaks.map((p) => fmt(p)).join(", ")} MB`);
      results.push(result("peak RSS of a full index (workbench index, median)", median(peaks), "MB", TARGET_FULL_RSS_MB));
    });

    if (!fullOk) {
      if (lastPhases) breakdowns.push({ name: "full (failed)", b: lastPhases, total: PHASE_ORDER.reduce((t, p) => t + lastPhases![p], 0) });
      log("SKIPPED the re-index and inventory measurements: the full index did not complete.");
    } else {
      const total = (full as Timed | null)?.stats.filesTotal ?? 0;

      // 4. Re-index, nothing changed
      await step("re-index, no change (median)", TARGET_NOCHANGE_MS, async () => {
        const runs: Timed[] = [];
        for (let i = 0; i < RUNS; i++) runs.push(await timedIndex(projectId));
        const spurious = median(runs.map((r) => r.stats.filesChanged + r.stats.filesRemoved));
        if (spurious !== 0) log(`WARNING: a no-change re-index saw ${spurious} of ${total} files as changed (fingerprints do not round-trip)`);
        results.push(result("re-index, no change (median)", median(runs.map((r) => r.ms)), "ms", TARGET_NOCHANGE_MS));
        results.push(result("  files seen as changed with no change", spurious, "files"));
        {
          const m = medianRun(runs);
          breakdowns.push({ name: "no change", b: m.phases, total: m.ms });
        }
      });

      // 5. One work session's state.json changed (a different session each run)
      await step("re-index, one state.json changed (median)", TARGET_ONE_CHANGE_MS, async () => {
        const runs: Timed[] = [];
        for (let i = 0; i < RUNS; i++) {
          const id = fixture.workIds[(i * 997 + 13) % fixture.workIds.length]!;
          const file = path.join(projectDir, ".claude/work", id, "state.json");
          appendUpdate(file, `bench run ${i}: one-file change`);
          const r = await timedIndex(projectId);
          if (r.stats.filesChanged !== 1) log(`WARNING: one-file re-index run ${i} saw ${r.stats.filesChanged} changed files`);
          runs.push(r);
        }
        results.push(result("re-index, one state.json changed (median)", median(runs.map((r) => r.ms)), "ms", TARGET_ONE_CHANGE_MS));
        {
          const m = medianRun(runs);
          breakdowns.push({ name: "1 state.json", b: m.phases, total: m.ms });
        }
      });

      // 6. One product-knowledge document changed
      if (fixture.documentPaths.length) {
        await step("re-index, one product doc changed (median)", TARGET_ONE_CHANGE_MS, async () => {
          const runs: Timed[] = [];
          for (let i = 0; i < RUNS; i++) {
            const file = path.join(projectDir, fixture.documentPaths[(i * 389 + 7) % fixture.documentPaths.length]!);
            fs.appendFileSync(file, `\n- Bench edit ${i}.\n`);
            const r = await timedIndex(projectId);
            if (r.stats.filesChanged !== 1) log(`WARNING: one-document re-index run ${i} saw ${r.stats.filesChanged} changed files`);
            runs.push(r);
          }
          results.push(result("re-index, one product doc changed (median)", median(runs.map((r) => r.ms)), "ms", TARGET_ONE_CHANGE_MS));
          {
            const m = medianRun(runs);
            breakdowns.push({ name: "1 product doc", b: m.phases, total: m.ms });
          }
        });
      }

      // 7. Inventory, in-process
      await step("listTopics page 1/100 in-process p50", TARGET_INVENTORY_P50_MS, async () => {
        const first = await listTopics(projectId, { page: 1, pageSize: 100 });
        if (first.rows.length === 0) log("WARNING: listTopics returned no rows");
        const s = await sample(async () => {
          await listTopics(projectId, { page: 1, pageSize: 100 });
        });
        results.push(result("listTopics page 1/100 in-process p50", s.p50, "ms", TARGET_INVENTORY_P50_MS));
        results.push(result("listTopics page 1/100 in-process p95", s.p95, "ms"));
      });
      // The inventory's filters: a text search (LIKE over slug and title) and a deep page.
      await step('listTopics q="export" in-process p50', null, async () => {
        const s = await sample(async () => {
          await listTopics(projectId, { q: "export", page: 1, pageSize: 100 });
        });
        results.push(result('listTopics q="export" in-process p50', s.p50, "ms"));
      });
      await step("listTopics page 40/100 in-process p50", null, async () => {
        const s = await sample(async () => {
          await listTopics(projectId, { page: 40, pageSize: 100 });
        });
        results.push(result("listTopics page 40/100 in-process p50", s.p50, "ms"));
      });
    }

    // 8. Inventory over HTTP (optional; the server indexes the cached project itself)
    const base = process.env.BENCH_BASE_URL?.replace(/\/+$/, "");
    if (base) {
      await step("GET /api/v1/projects/<id>/topics p50", TARGET_INVENTORY_P50_MS, async () => {
        const id = await serverProjectId(base, fs.realpathSync(fixture.dir));
        const url = `${base}/api/v1/projects/${id}/topics`;
        const s = await sample(async () => {
          const r = await fetchRetry(url, undefined, 1);
          if (!r.ok) throw new Error(`GET ${url} answered ${r.status}`);
          await r.arrayBuffer();
        });
        results.push(result("GET /api/v1/projects/<id>/topics p50", s.p50, "ms", TARGET_INVENTORY_P50_MS));
        results.push(result("GET /api/v1/projects/<id>/topics p95", s.p95, "ms"));
      });
    } else {
      log("HTTP inventory: skipped (set BENCH_BASE_URL to a running server)");
    }

    if (!process.env.BENCH_DATABASE_URL && fs.existsSync(dataDir)) results.push(result("database size on disk", dirSize(dataDir) / 1024 / 1024, "MB"));

    // Report
    if (breakdowns.length) {
      log("");
      log(`Phase breakdown (each column: the phases of its median run of ${RUNS}; they add up to its total)`);
      log(breakdownTable(breakdowns));
    }
    log("");
    log(resultsTable(results));
    const file = writeResults("index", results);
    log("");
    log(`wrote ${path.relative(process.cwd(), file)}`);
    const missed = results.filter((r) => r.pass === false);
    log(missed.length ? `MISSED: ${missed.map((r) => r.metric + (r.error ? " (failed)" : "")).join("; ")}` : "all targets met");
  } finally {
    await closeDb();
    if (process.env.BENCH_KEEP === "1") log(`kept ${tmp}`);
    else fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`index.bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
