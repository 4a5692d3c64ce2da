/**
 * Packet editor responsiveness on the production build (a script, not a vitest suite):
 *
 *   npm run build && npx tsx bench/editor-inp.bench.ts
 *
 * Starts `workbench serve` on a fresh database, creates a packet of about 2,000 tokens,
 * opens the editor in headless Chromium and types BENCH_KEYS (120) characters into the
 * markdown view and then into a form field, one key every 40 ms. The page records every
 * Event Timing entry (PerformanceObserver, durationThreshold 16 ms) of its keyboard
 * interactions; INP is estimated as the 98th percentile of interaction durations (the
 * web-vitals definition for pages with many interactions). Target INP <= 100 ms.
 * Results go to bench/out/editor-inp.json.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { requireBuild, startServedApp } from "./served-app";
import { envInt, failure, quantile, result, resultsTable, writeResults, type BenchResult } from "./report";

const KEYS = envInt("BENCH_KEYS", 120);
const PORT = envInt("BENCH_PORT", 3295);
const BASE = `http://127.0.0.1:${PORT}`;
const log = (s = "") => process.stdout.write(s + "\n");

requireBuild(log);

/** A realistic packet near the 2,000-token cap. */
function bigPacket(): string {
  const bullets = (prefix: string, n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => `- ${prefix}${f(i)}`).join("\n");
  return [
    "## Context Packet",
    "",
    "**Task**: Persist user export jobs so a restart resumes them",
    "**Parent**: cook",
    "**Scope**: ExportJob, ExportQueue, ExportWorker",
    "",
    "### Decisions Made",
    bullets("[Decision]: ", 18, (i) => `chose the durable ExportQueue variant ${i} over an in-memory list because restarts lose memory and the worker must resume cleanly`),
    "",
    "### Constraints",
    bullets("MUST: ", 17, (i) => `keep ExportJob ${i} idempotent across restarts and retries of the ExportWorker`),
    "",
    "### Already Tried",
    bullets("", 10, (i) => `retry list number ${i} kept in process memory — lost on every deploy of the worker`),
    "",
    "### Type Surface (durable)",
    bullets("", 10, (i) => `\`ExportJob${i} { id: string; state: "queued" | "running" | "done" }\` — one export request`),
    "",
    "### Files Touched (locator-only, may rename)",
    bullets("", 8, (i) => `\`server/export/queue${i}.ts\` (ExportQueue, claim) — claims and persists jobs`),
    "",
    "### Acceptance Criteria",
    bullets("[ ] ", 10, (i) => `persists queued ExportJob ${i} across a restart`),
    "",
    "### Out of scope",
    "- (none)",
    "",
  ].join("\n");
}

async function measure(page: Page, label: string, focus: () => Promise<void>): Promise<number[]> {
  await page.evaluate(() => {
    const w = window as unknown as { __inp: number[] };
    w.__inp = [];
    const byInteraction = new Map<number, number>();
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEventTiming & { interactionId?: number })[]) {
        if (!e.interactionId) continue;
        byInteraction.set(e.interactionId, Math.max(byInteraction.get(e.interactionId) ?? 0, e.duration));
      }
      w.__inp = [...byInteraction.values()];
    }).observe({ type: "event", durationThreshold: 16, buffered: false } as PerformanceObserverInit);
  });
  await focus();
  for (let i = 0; i < KEYS; i++) await page.keyboard.type(i % 10 === 9 ? " " : "abcdefghi"[i % 9]!, { delay: 40 });
  // Entries arrive after the next frame; a last harmless interaction flushes them.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100))));
  const durations = await page.evaluate(() => (window as unknown as { __inp: number[] }).__inp);
  log(`${label}: ${durations.length} interactions over 16 ms recorded out of ${KEYS} keys`);
  return durations;
}

const results: BenchResult[] = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wb-inp-bench-"));
fs.mkdirSync(path.join(tmp, "project"));
const { browser, stop } = await startServedApp(PORT, path.join(tmp, "data"));
try {
  const project = (
    (await (await fetch(`${BASE}/api/v1/projects`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ path: path.join(tmp, "project") }) })).json()) as { project: { id: string } }
  ).project;
  const created = (await (await fetch(`${BASE}/api/v1/projects/${project.id}/packets`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ markdown: bigPacket() }) })).json()) as {
    packet: { id: string; head: { tokenEstimate: number } };
  };
  log(`packet of ${created.packet.head.tokenEstimate} tokens`);
  results.push(result("packet size", created.packet.head.tokenEstimate, "tokens"));
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript(() => window.localStorage.setItem("workbench.displayName", "Bench"));
  const page = await context.newPage();
  await page.goto(`${BASE}/projects/${project.id}/packets/${created.packet.id}`);
  await page.getByTestId("packet-editor").and(page.locator("[data-ready=true]")).waitFor({ timeout: 60_000 });

  await page.getByRole("tab", { name: "Markdown" }).click();
  const md = await measure(page, "markdown view", async () => {
    await page.getByLabel("Packet markdown").click();
    await page.keyboard.press("Control+End");
  });
  await page.getByRole("tab", { name: "Form" }).click();
  const form = await measure(page, "form view", async () => {
    await page.getByLabel("Already Tried").click();
    await page.keyboard.press("Control+End");
  });
  for (const [label, xs] of [
    ["markdown view", md],
    ["form view", form],
  ] as const) {
    // Interactions under 16 ms are not reported by the browser; they count as 16 ms.
    const all = [...xs, ...Array(Math.max(0, KEYS - xs.length)).fill(16)];
    results.push(result(`INP estimate (p98 of ${KEYS} key interactions), ${label}`, quantile(all, 0.98), "ms", 100));
    results.push(result(`  slowest interaction, ${label}`, Math.max(16, ...xs), "ms"));
  }
} catch (e) {
  results.push(failure("editor INP benchmark", 0, 100, e));
} finally {
  await stop();
  fs.rmSync(tmp, { recursive: true, force: true });
}

log("");
log(resultsTable(results));
log(`\nwrote ${writeResults("editor-inp", results)}`);
