#!/usr/bin/env node
// One closing line over every runner's JSON report: "tests: N passed, N failed".
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2] ?? ".tmp/results";
let passed = 0;
let failed = 0;
let skipped = 0;
const lines = [];
for (const name of ["vitest-sqlite.json", "vitest-postgres.json", "playwright.json"]) {
  const file = path.join(dir, name);
  if (!fs.existsSync(file)) {
    lines.push(`${name}: missing (that runner did not finish)`);
    failed++;
    continue;
  }
  const r = JSON.parse(fs.readFileSync(file, "utf8"));
  let p, f, s;
  if (r.stats) {
    p = r.stats.expected + (r.stats.flaky ?? 0);
    f = r.stats.unexpected;
    s = r.stats.skipped;
    if (r.errors?.length) f += r.errors.length;
  } else {
    p = r.numPassedTests;
    f = r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0);
    s = r.numPendingTests + (r.numTodoTests ?? 0);
  }
  passed += p;
  failed += f;
  skipped += s;
  lines.push(`${name.replace(".json", "")}: ${p} passed, ${f} failed${s ? `, ${s} skipped` : ""}`);
}
for (const l of lines) console.log(l);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
