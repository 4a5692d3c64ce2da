/**
 * What the served-app benchmarks share: a JSON call that fails with the server's message, and
 * a continuous autocannon load whose answers are cut into windows afterwards (a baseline, the
 * time a job or a computation ran).
 */
import autocannon from "autocannon";
import { quantile } from "./report";

/** A JSON answer, or an error naming the URL, the status and the server's message. */
export async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const r = await fetch(url, init);
  const body = (await r.json()) as T & { error?: { message: string } };
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}: ${body.error?.message ?? ""}`);
  return body;
}

/** One answer of a load: when it came (ms since the load started) and how long it took. */
export interface Sample {
  at: number;
  ms: number;
}

export interface LoadWindow {
  p50: number;
  p99: number;
  max: number;
  requests: number;
  /** Answers slower than `slowMs`: when (ms since the window opened) and how long they took. */
  slow: Sample[];
}

/** Latencies of the requests answered within [from, to) of a continuous load. */
export function loadWindow(samples: Sample[], from: number, to: number, slowMs = Infinity): LoadWindow {
  const inside = samples.filter((x) => x.at >= from && x.at < to);
  const ms = inside.map((x) => x.ms);
  return {
    p50: quantile(ms, 0.5),
    p99: quantile(ms, 0.99),
    max: Math.max(...ms),
    requests: ms.length,
    slow: inside.filter((x) => x.ms > slowMs).map((x) => ({ at: x.at - from, ms: x.ms })),
  };
}

/**
 * `connections` clients on one URL from now until `until` settles: one load throughout, so
 * what is measured starts under a load already running (no connections opening at its start).
 */
export function drive(url: string, connections: number, until: Promise<unknown>): { t0: number; samples: Sample[]; done: Promise<{ errors: number }> } {
  const t0 = performance.now();
  const samples: Sample[] = [];
  const done = new Promise<{ errors: number }>((resolve, reject) => {
    const instance = autocannon({ url, connections, duration: 3600, timeout: 10 }, (err, r) => (err ? reject(err) : resolve({ errors: r.errors + r.timeouts + r.non2xx })));
    instance.on("response", (_client: unknown, _status: number, _bytes: number, ms: number) => samples.push({ at: performance.now() - t0, ms }));
    void until.finally(() => instance.stop());
  });
  return { t0, samples, done };
}
