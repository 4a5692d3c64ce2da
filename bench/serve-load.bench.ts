/**
 * Serving under load (issue 18): the production server driven by autocannon, loopback only.
 *
 *   npx next build --webpack && npx tsx bench/serve-load.bench.ts
 *
 * `workbench serve --sample` on a fresh SQLite data folder indexes the bundled sample project;
 * the generated project of index.bench.ts (5,000 sessions, 5,000 documents, 500 tickets,
 * cached under bench/out/projects/) is then registered through POST /api/v1/projects and
 * indexed by the server. For each URL — the sample's topic page, inventory and bundled run
 * page, the same two pages on the generated project, and /api/v1/search — the benchmark
 *   1. sends a few requests one at a time and reads the server's SQL statement count around
 *      each (/api/query-stats, on with WORKBENCH_QUERY_STATS=1): queries per request;
 *   2. warms up with BENCH_CONNECTIONS clients for BENCH_WARMUP_SECONDS (not recorded);
 *   3. drives it with BENCH_CONNECTIONS clients (20) for BENCH_SECONDS (30): requests/s,
 *      p50 and p99 latency, and errors (connection errors, timeouts and non-2xx answers).
 * Targets: p99 ≤ 500 ms and 0 errors. Results go to bench/out/serve-load.json.
 *
 * Environment: BENCH_CONNECTIONS (20), BENCH_SECONDS (30), BENCH_WARMUP_SECONDS (3),
 * BENCH_PORT (3295; the co-editing server takes the next one), BENCH_GENERATED=0 to skip the
 * generated project (and BENCH_SESSIONS / BENCH_DOCUMENTS / BENCH_TICKETS / BENCH_SEED to size
 * it), BENCH_ONLY=<substring> to drive only the URLs whose label contains it,
 * BENCH_CPU_PROF=<dir> to write the server processes' CPU profiles there (<pid>.cpuprofile,
 * through bench/cpu-profile-preload.cjs).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { cachedProject } from "./generate-project";
import { BENCH_DIR, envInt, failure, fmt, median, result, resultsTable, table, writeResults, type BenchResult } from "./report";
import { requireBuild, startServer } from "./served-app";

const TARGET_P99_MS = 500;
const CONNECTIONS = Math.max(1, envInt("BENCH_CONNECTIONS", 20));
const SECONDS = Math.max(1, envInt("BENCH_SECONDS", 30));
const WARMUP_SECONDS = envInt("BENCH_WARMUP_SECONDS", 3);
const PORT = envInt("BENCH_PORT", 3295);
const GENERATED = process.env.BENCH_GENERATED !== "0";
const ONLY = process.env.BENCH_ONLY ?? "";
const P = { sessions: envInt("BENCH_SESSIONS", 5000), documents: envInt("BENCH_DOCUMENTS", 5000), tickets: envInt("BENCH_TICKETS", 500), seed: envInt("BENCH_SEED", 1) };
/** Sequential requests per URL for the statement count (the smallest count is kept). */
const COUNT_SAMPLES = 3;
const log = (s = "") => process.stdout.write(s + "\n");

requireBuild(log);

interface Target {
  label: string;
  path: string;
  /** Text the answer must contain, so a fast error page is not measured as a success. */
  expect: string;
}

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const r = await fetch(url, init);
  const body = (await r.json()) as T & { error?: { message: string } };
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}: ${body.error?.message ?? ""}`);
  return body;
}

type Job = { id: string; status: string; error?: string | null };

/** Registers a folder with the server and waits for its index job. */
async function addAndIndex(base: string, dir: string): Promise<{ id: string; ms: number }> {
  const t0 = performance.now();
  const created = await json<{ project: { id: string }; job: Job }>(`${base}/api/v1/projects`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ path: dir }),
  });
  let job = created.job;
  const deadline = Date.now() + 600_000;
  while (job.status === "queued" || job.status === "running") {
    if (Date.now() > deadline) throw new Error(`index job ${job.id} still ${job.status} after 10 minutes`);
    await new Promise((r) => setTimeout(r, 500));
    job = (await json<{ job: Job }>(`${base}/api/v1/jobs/${job.id}`)).job;
  }
  if (job.status !== "succeeded") throw new Error(`index job ${job.id} ${job.status}: ${job.error ?? ""}`);
  return { id: created.project.id, ms: performance.now() - t0 };
}

async function queryTotal(base: string): Promise<number> {
  return (await json<{ queries: number }>(`${base}/api/query-stats`)).queries;
}

/** SQL statements one request costs: the smallest of a few sequential samples (background work only adds). */
async function queriesPerRequest(base: string, t: Target): Promise<{ queries: number; ms: number[] }> {
  const counts: number[] = [];
  const ms: number[] = [];
  for (let i = 0; i < COUNT_SAMPLES; i++) {
    const before = await queryTotal(base);
    const t0 = performance.now();
    const r = await fetch(base + t.path);
    const text = await r.text();
    ms.push(performance.now() - t0);
    const after = await queryTotal(base);
    if (!r.ok) throw new Error(`GET ${t.path}: HTTP ${r.status}`);
    if (!text.includes(t.expect)) throw new Error(`GET ${t.path}: the answer does not contain ${JSON.stringify(t.expect)}`);
    counts.push(after - before);
  }
  return { queries: Math.min(...counts), ms };
}

function drive(url: string, seconds: number): Promise<autocannon.Result> {
  return autocannon({ url, connections: CONNECTIONS, duration: seconds, timeout: 10 });
}

const results: BenchResult[] = [];
const rows: string[][] = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wb-serve-load-"));
const cpuProf = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : null;
if (cpuProf) fs.mkdirSync(cpuProf, { recursive: true });
log(
  `# serve-load.bench: ${CONNECTIONS} connections × ${SECONDS} s per URL (warm-up ${WARMUP_SECONDS} s), ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);

const t0 = performance.now();
const server = await startServer(PORT, path.join(tmp, "data"), {
  args: ["--sample"],
  env: { WORKBENCH_QUERY_STATS: "1", ...(cpuProf ? { NODE_OPTIONS: `--require ${path.join(BENCH_DIR, "cpu-profile-preload.cjs")}`, BENCH_CPU_PROF_DIR: cpuProf } : {}) },
  startTimeoutMs: 180_000,
});
const base = server.base;
try {
  results.push(result("server start with the sample project indexed", performance.now() - t0, "ms"));
  const projects = (await json<{ projects: { id: string; name: string }[] }>(`${base}/api/v1/projects`)).projects;
  const sample = projects[0];
  if (!sample) throw new Error("the sample project was not created");
  const runs = (await json<{ runs: { id: string; relPath: string; loopType: string }[] }>(`${base}/api/v1/projects/${sample.id}/runs`)).runs;
  const run = runs.find((r) => r.relPath.includes("sqlite-to-turso") && r.loopType === "context") ?? runs.find((r) => r.relPath.includes("sqlite-to-turso"));
  if (!run) throw new Error(`the bundled run was not discovered: ${JSON.stringify(runs.map((r) => r.relPath))}`);

  const targets: Target[] = [
    { label: "sample: topic JIRA-123", path: `/projects/${sample.id}/topics/JIRA-123`, expect: "load-context-result" },
    { label: "sample: inventory", path: `/projects/${sample.id}/topics`, expect: "JIRA-123" },
    { label: "sample: run page", path: `/projects/${sample.id}/runs/${run.id}`, expect: run.relPath },
  ];
  if (GENERATED) {
    const fixture = cachedProject(P);
    log(fixture.generatedMs === null ? `generated project: cached at ${fixture.dir}` : `generated project: written in ${fmt(fixture.generatedMs / 1000)} s at ${fixture.dir}`);
    const added = await addAndIndex(base, fs.realpathSync(fixture.dir));
    results.push(result(`generated project (${P.sessions} sessions, ${P.documents} documents): add + index`, added.ms, "ms"));
    const slug = fixture.workIds[0]!;
    targets.push(
      { label: `generated: topic ${slug}`, path: `/projects/${added.id}/topics/${encodeURIComponent(slug)}`, expect: "load-context-result" },
      { label: "generated: inventory", path: `/projects/${added.id}/topics`, expect: "topics found" },
    );
  }
  targets.push({ label: "GET /api/v1/search?q=export", path: "/api/v1/search?q=export", expect: '"hits"' });

  for (const t of targets.filter((x) => x.label.includes(ONLY))) {
    const url = base + t.path;
    log(`\n${t.label}: ${t.path}`);
    try {
      const q = await queriesPerRequest(base, t);
      log(`  ${q.queries} SQL statements per request; sequential ${q.ms.map((m) => fmt(m)).join(", ")} ms`);
      results.push(result(`${t.label}: SQL statements per request`, q.queries, "queries"));
      results.push(result(`${t.label}: one request alone (median of ${COUNT_SAMPLES})`, median(q.ms), "ms"));
      if (WARMUP_SECONDS > 0) await drive(url, WARMUP_SECONDS);
      const r = await drive(url, SECONDS);
      const errors = r.errors + r.timeouts + r.non2xx;
      results.push(result(`${t.label}: requests/s`, r.requests.average, "req/s"));
      results.push(result(`${t.label}: latency p50`, r.latency.p50, "ms"));
      results.push(result(`${t.label}: latency p99`, r.latency.p99, "ms", TARGET_P99_MS));
      results.push({ ...result(`${t.label}: errors, timeouts and non-2xx`, errors, "requests", 0), exact: true });
      rows.push([t.label, fmt(r.requests.average), fmt(r.latency.p50), fmt(r.latency.p99), String(errors), String(q.queries)]);
      log(`  ${fmt(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, ${r.requests.total} requests, ${errors} errors`);
    } catch (e) {
      results.push(failure(`${t.label}: load`, 0, TARGET_P99_MS, e));
      log(`  FAILED: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
} catch (e) {
  results.push(failure("serve-load benchmark", performance.now() - t0, null, e));
} finally {
  await server.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
}

log("");
if (rows.length) log(table(["URL", "req/s", "p50 ms", "p99 ms", "errors", "queries/req"], rows) + "\n");
log(resultsTable(results));
log(`\nwrote ${writeResults("serve-load", results)}`);
if (cpuProf) log(`server CPU profiles in ${cpuProf}`);
