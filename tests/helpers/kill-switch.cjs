/**
 * Preloaded into a writer's process (`node --require tests/helpers/kill-switch.cjs ...`) by the
 * kill -9 tests (tests/db/kill-*.test.ts): counts the process's write steps (every fs call that
 * changes a file or folder, every SQLite statement run through better-sqlite3, every query sent
 * through pg) and SIGKILLs the process just before step WORKBENCH_KILL_AT. A kill point is then a
 * step number: deterministic, and spread over a whole write by a first run that counts its steps
 * (WORKBENCH_KILL_COUNT names a file that gets the count when the process exits normally).
 * CommonJS and plain JS, so it loads before anything else, in the compiled CLI as in tsx.
 */
"use strict";
const fs = require("node:fs");
const { createRequire, syncBuiltinESMExports } = require("node:module");
const path = require("node:path");

const killAt = Number(process.env.WORKBENCH_KILL_AT || 0);
const countFile = process.env.WORKBENCH_KILL_COUNT || "";
let steps = 0;
const original = { writeFileSync: fs.writeFileSync };

function step() {
  steps++;
  if (killAt > 0 && steps >= killAt) process.kill(process.pid, "SIGKILL");
}

function wrap(target, name) {
  const fn = target[name];
  if (typeof fn !== "function" || fn.__killSwitch) return;
  const wrapped = function (...args) {
    step();
    return fn.apply(this, args);
  };
  wrapped.__killSwitch = true;
  target[name] = wrapped;
}

/** Opening for reading changes nothing: only opens that can write are steps. */
function wrapOpen(target, name) {
  const fn = target[name];
  if (typeof fn !== "function") return;
  target[name] = function (file, flags, ...rest) {
    if (typeof flags === "string" ? /[wa+]/.test(flags) : typeof flags === "number" && (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR)) !== 0) step();
    return fn.call(this, file, flags, ...rest);
  };
}

const FS_WRITES = ["writeFile", "appendFile", "write", "writev", "fsync", "fdatasync", "rename", "unlink", "rm", "rmdir", "mkdir", "copyFile", "cp", "link", "symlink", "truncate", "ftruncate", "mkdtemp"];
for (const name of FS_WRITES) {
  wrap(fs, name);
  wrap(fs, `${name}Sync`);
  wrap(fs.promises, name);
}
wrapOpen(fs, "openSync");
wrapOpen(fs, "open");
wrapOpen(fs.promises, "open");
syncBuiltinESMExports();

// Database statements: resolved from the project the process runs in (its node_modules).
const projectRequire = createRequire(path.join(process.env.WORKBENCH_APP_ROOT || process.cwd(), "package.json"));
try {
  const Database = projectRequire("better-sqlite3");
  const probe = new Database(":memory:");
  const Statement = Object.getPrototypeOf(probe.prepare("SELECT 1"));
  for (const name of ["run", "all", "get", "iterate"]) wrap(Statement, name);
  wrap(Object.getPrototypeOf(probe), "exec");
  probe.close();
} catch {
  // no SQLite driver here: the process writes no SQLite
}
if (/^postgres/.test(process.env.DATABASE_URL || "")) {
  const pg = projectRequire("pg");
  wrap(pg.Client.prototype, "query");
}

if (countFile) process.on("exit", () => original.writeFileSync(countFile, String(steps)));
