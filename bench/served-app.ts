/**
 * The production dashboard for browser benchmarks: `workbench serve` on a fresh data
 * folder, and headless Chromium. Needs `npm run build` first.
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
  if (!fs.existsSync(path.join(APP_ROOT, ".next", "BUILD_ID"))) {
    log("no production build: run `npm run build` first");
    process.exit(1);
  }
}

export async function startServedApp(port: number, dataDir: string): Promise<ServedApp> {
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [path.join(APP_ROOT, "bin", "workbench.mjs"), "serve", "--port", String(port)], {
    cwd: APP_ROOT,
    env: { ...process.env, WORKBENCH_DATA_DIR: dataDir, DATABASE_URL: "" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise((r) => server.once("exit", r));
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
  const stop = async () => {
    await browser.close();
    server.kill("SIGTERM");
    await exited;
  };
  const deadline = Date.now() + 60_000;
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
  return { base, browser, stop };
}
