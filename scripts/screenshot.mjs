#!/usr/bin/env node
// Screenshots of dashboard pages in headless Chromium, for looking at what users see.
// Usage: node scripts/screenshot.mjs <baseUrl> <outDir> <path> [<path> ...]
import { chromium } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";

const [base, outDir, ...paths] = process.argv.slice(2);
if (!base || !outDir || paths.length === 0) {
  console.error("usage: node scripts/screenshot.mjs <baseUrl> <outDir> <path>...");
  process.exit(1);
}
fs.mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
for (const scheme of (process.env.SCHEMES || "light").split(",")) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, colorScheme: scheme });
  for (const p of paths) {
    await page.goto(base + p, { waitUntil: "networkidle" });
    const file = path.join(outDir, `${p.replace(/[^a-z0-9]+/gi, "_").replace(/^_|_$/g, "") || "home"}-${scheme}.png`);
    await page.screenshot({ path: file, fullPage: process.env.FULL !== "0" });
    console.log(file);
  }
  await page.close();
}
await browser.close();
