#!/usr/bin/env node
// The README's quick tour: one screenshot per page, of the bundled sample, in public/tour/.
// Start a server on the sample first, then point this at it:
//   WORKBENCH_DATA_DIR=/tmp/tour node bin/workbench.cjs serve --sample --port 4405 &
//   node scripts/tour-screenshots.mjs http://127.0.0.1:4405
import { chromium } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const base = process.argv[2];
if (!base) {
  console.error("usage: node scripts/tour-screenshots.mjs <baseUrl>");
  process.exit(1);
}
const outDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "public", "tour");
fs.mkdirSync(outDir, { recursive: true });

const api = async (p, init) => {
  const res = await fetch(base + p, { ...init, headers: { "content-type": "application/json", origin: base, ...(init?.headers ?? {}) } });
  if (!res.ok) throw new Error(`${p}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
};
const { projects } = await api("/api/v1/projects");
const project = projects[0];
if (!project) throw new Error("no project: start the server with --sample");
const p = `/projects/${project.id}`;
const { runs } = await api(`${p.replace("/projects", "/api/v1/projects")}/runs`);
const run = runs[0];
// A packet to show the editor with (the sample has none until someone writes one).
const packets = (await api(`/api/v1/projects/${project.id}/packets`)).packets;
const packet = packets[0] ?? (await api(`/api/v1/projects/${project.id}/packets`, { method: "POST", body: JSON.stringify({ kind: "packet", title: "Export orders as CSV", topicSlug: "JIRA-123" }) })).packet;

const shots = [
  ["projects", "/"],
  ["project", p],
  ["topics", `${p}/topics`],
  ["topic", `${p}/topics/JIRA-123`],
  ["knowledge", `${p}/knowledge`],
  ["runs", `${p}/runs`],
  ["run", `${p}/runs/${run.id}`],
  ["packets", `${p}/packets`],
  ["packet", `${p}/packets/${packet.id}`],
  ["memory", `${p}/memory`],
  ["search", `/search?q=session`],
];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: "light" });
for (const [name, url] of shots) {
  await page.goto(base + url, { waitUntil: "networkidle" });
  const file = path.join(outDir, `${name}.png`);
  await page.screenshot({ path: file });
  console.log(file);
}
await browser.close();
