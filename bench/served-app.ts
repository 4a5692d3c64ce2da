/**
 * The production dashboard for benchmarks: `workbench serve` on a fresh data folder
 * (startServer), with headless Chromium for the browser benchmarks (startServedApp).
 * Needs `npm run build` first.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { BENCH_DIR } from "./report";

const APP_ROOT = path.dirname(BENCH_DIR);

export interface ServedApp {
  base: string;
  browser: Browser;
  /** Stops the server and the browser. */
  stop(): Promise<void>;
}

export function requireBuild(log: (s: string) => void): void {
  // `workbench serve` serves the build in NEXT_DIST_DIR (next.config.js).
  if (!fs.existsSync(path.join(APP_ROOT, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID"))) {
    log("no production build: run `npm run build` first");
    process.exit(1);
  }
}

export interface Server {
  base: string;
  /** The `workbench serve` process (the dashboard itself runs in its `next start` child). */
  pid: number;
  /** Stops the server. */
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** Extra `workbench serve` arguments (`--sample`). */
  args?: string[];
  /** Extra environment for the server. */
  env?: Record<string, string>;
  /** How long to wait for the first answer (the sample project is indexed before it listens). */
  startTimeoutMs?: number;
}

/** `workbench serve` on a fresh data folder, once it answers; no browser. */
export async function startServer(port: number, dataDir: string, opts: ServerOptions = {}): Promise<Server> {
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [path.join(APP_ROOT, "bin", "workbench.cjs"), "serve", "--port", String(port), ...(opts.args ?? [])], {
    cwd: APP_ROOT,
    env: { ...process.env, WORKBENCH_DATA_DIR: dataDir, DATABASE_URL: "", ...opts.env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise((r) => server.once("exit", r));
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) server.kill("SIGTERM");
    await exited;
  };
  const deadline = Date.now() + (opts.startTimeoutMs ?? 60_000);
  for (;;) {
    try {
      if ((await fetch(`${base}/api/v1/projects`)).ok) break;
    } catch {
      // still starting
    }
    if (Date.now() > deadline || server.exitCode !== null) {
      await stop();
      throw new Error("the server did not start");
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, pid: server.pid!, stop };
}

export async function startServedApp(port: number, dataDir: string): Promise<ServedApp> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
  let server: Server;
  try {
    server = await startServer(port, dataDir);
  } catch (e) {
    await browser.close();
    throw e;
  }
  const stop = async () => {
    await browser.close();
    await server.stop();
  };
  return { base: server.base, browser, stop };
}
