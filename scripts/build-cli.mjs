#!/usr/bin/env node
/**
 * Compiles the CLI (cli/main.ts and the lib code it imports) into dist/cli/ with esbuild,
 * so `workbench` starts in plain Node instead of loading tsx and transpiling on every run.
 * npm packages stay external (resolved from node_modules), except commander, which every
 * command's start loads: bundled into main.js it starts in about half the time.
 * dist/cli/inputs.json lists the source files, so bin/workbench.cjs can fall back to the
 * sources when one is newer, and for each entry the sources of the modules it loads before
 * anything runs (`start`) and of every module it can load (`reachable`), so a start checks
 * only what it loads (see bin/workbench.cjs). Idempotent and quick when the build is current.
 */
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cliBuildIsCurrent as currentAt } from "./cli-build-state.cjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outdir = path.join(root, "dist", "cli");
const manifest = path.join(outdir, "inputs.json");
const ENTRIES = { main: "cli/main.ts" };
/**
 * Entries built alone, into one CommonJS file each, without the Prisma client: every module a
 * start loads costs a resolution, a read and a link, and load-context's fast start otherwise
 * loads twenty shared chunks. CommonJS, so the bin requires it without the ESM loader (and
 * better-sqlite3 is required, not scanned for its exports by the ESM translator). Such an entry
 * answers only through plain SQL; were anything to reach for the client, it fails, the entry
 * returns null and main runs the command (bin/workbench.cjs). `packages`: the npm packages
 * bundled into it, whose versions the bin checks before loading it.
 *
 * reduce-main is the reducer's own entry (its whole process is timed against the reference):
 * through the ESM loader, with the reducer in shared chunks, its start cost ~40 ms of CPU more.
 */
const SINGLE_FILE_ENTRIES = {
  "load-context-main": { source: "cli/load-context-main.ts", packages: ["better-sqlite3"] },
  "reduce-main": { source: "cli/reduce-main.ts", packages: [] },
};

/** Resolves the generated Prisma clients to a module whose client refuses to be created. */
const withoutPrisma = {
  name: "without-prisma",
  setup(b) {
    b.onResolve({ filter: /\/generated\/(sqlite|postgres)\/client(\.ts)?$/ }, () => ({ path: "prisma-client", namespace: "without-prisma" }));
    b.onLoad({ filter: /.*/, namespace: "without-prisma" }, () => ({
      contents: 'export class PrismaClient { constructor() { throw new Error("this start of the CLI reads through plain SQL only"); } }',
      loader: "js",
    }));
  },
};

/**
 * better-sqlite3 bundled into a single-file entry, its native addon loaded from where npm built
 * it: requiring the package's twelve modules, and `bindings` searching for the addon (it reads
 * a stack trace and tries a dozen paths), were a good part of load-context's start (see
 * bench/README.md, cli-start). When the addon is not at build/Release, or a build/Debug one is
 * there (which `bindings` would pick first), the installed package is required as usual.
 * Should the entry decline and main run in the same process, main's better-sqlite3 shares the
 * already-loaded addon, whose errors are then the bundled copy's SqliteError (nothing here
 * tells SQLite errors apart by class).
 */
const bundledSqlite = {
  name: "bundled-sqlite",
  setup(b) {
    b.onResolve({ filter: /^better-sqlite3$/ }, (a) => (a.namespace === "bundled-sqlite" ? { path: "better-sqlite3", external: true } : { path: "better-sqlite3", namespace: "bundled-sqlite" }));
    b.onLoad({ filter: /.*/, namespace: "bundled-sqlite" }, () => ({
      contents: `
const fs = require("node:fs");
const path = require("node:path");
const build = path.join(path.dirname(require.resolve("better-sqlite3/package.json")), "build");
const addon = path.join(build, "Release", "better_sqlite3.node");
let Database;
if (fs.existsSync(addon) && !fs.existsSync(path.join(build, "Debug", "better_sqlite3.node"))) {
  const Bundled = require(${JSON.stringify(req.resolve("better-sqlite3"))});
  Database = class Database extends Bundled {
    constructor(file, options) {
      super(file, { nativeBinding: addon, ...options });
    }
  };
} else Database = require("better-sqlite3");
module.exports = Database;`,
      resolveDir: root,
      loader: "js",
    }));
  },
};

/** Bundled into the build rather than loaded from node_modules (see bundlePackages). */
const BUNDLED = ["commander"];

export function cliBuildIsCurrent() {
  return currentAt(root);
}

// node_modules may be a link to another checkout's (a git worktree): its files then show as ../…/node_modules/….
// A module a plugin made up (namespace:path) has no source file to check.
const firstParty = (f) => !/(^|\/)node_modules\//.test(f) && !/^[a-z-]+:/.test(f);

/**
 * The first-party sources an entry loads, from esbuild's graph of source imports: through
 * static imports only (what is loaded before its code runs), or through dynamic imports too
 * (all it can load). Sources a bundle left no code of (types only) are in it too: an edit can
 * give them code.
 */
function entryInputs(metafile, entry, withDynamic) {
  const seen = new Set();
  const visit = (f) => {
    if (seen.has(f) || !metafile.inputs[f]) return;
    seen.add(f);
    for (const i of metafile.inputs[f].imports) if (!i.external && (withDynamic || i.kind !== "dynamic-import")) visit(i.path);
  };
  visit(entry);
  return [...seen].filter(firstParty).sort();
}

const req = createRequire(path.join(root, "package.json"));

/** Resolves the BUNDLED packages to their files in node_modules, so esbuild bundles them despite `packages: "external"`. */
const bundlePackages = {
  name: "bundle-packages",
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${BUNDLED.join("|")})$`) }, (a) => ({ path: req.resolve(a.path) }));
  },
};

/** A package's version, from its package.json in node_modules (read as a file: commander's exports do not list it). */
const versionOf = (name) => JSON.parse(fs.readFileSync(path.join(root, "node_modules", name, "package.json"), "utf8")).version;

const COMMON = {
  absWorkingDir: root,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  metafile: true,
  logLevel: "warning",
  // The generated Prisma client reads __dirname / require in ESM; give it both.
  banner: {
    js: 'import { createRequire as __wbCreateRequire } from "node:module"; const require = __wbCreateRequire(import.meta.url);',
  },
};

/** A single-file entry as CommonJS: import.meta.url and import() mean what they do in the ESM build. */
const SINGLE_FILE = {
  ...COMMON,
  format: "cjs",
  define: { "import.meta.url": "__wbImportMetaUrl" },
  // The directive first: esbuild's own "use strict" comes after the banner, where it is no directive.
  banner: { js: '"use strict";\nconst __wbImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  // import() of a package becomes a require when it runs: still lazy, without the ESM loader.
  supported: { "dynamic-import": false },
  plugins: [withoutPrisma, bundledSqlite],
};

export async function buildCli() {
  const builtAt = Date.now();
  fs.rmSync(outdir, { recursive: true, force: true });
  const { metafile } = await build({ ...COMMON, entryPoints: Object.values(ENTRIES), splitting: true, plugins: [bundlePackages], outdir });
  const inputs = new Set(Object.keys(metafile.inputs).filter(firstParty));
  const entries = {};
  for (const [name, source] of Object.entries(ENTRIES)) {
    if (!metafile.inputs[source]) throw new Error(`build-cli: ${source} is not among the build's inputs`);
    entries[name] = { start: entryInputs(metafile, source, false), reachable: entryInputs(metafile, source, true) };
  }
  for (const [name, { source, packages }] of Object.entries(SINGLE_FILE_ENTRIES)) {
    const file = `${name}.cjs`;
    const single = await build({ ...SINGLE_FILE, entryPoints: [source], outfile: path.join(outdir, file) });
    const own = entryInputs(single.metafile, source, true);
    entries[name] = { start: own, reachable: own, file, format: "cjs", packages: Object.fromEntries(packages.map((p) => [p, versionOf(p)])) };
    for (const f of own) inputs.add(f);
  }
  const packages = Object.fromEntries(BUNDLED.map((name) => [name, versionOf(name)]));
  const help = renderHelp();
  fs.writeFileSync(manifest, JSON.stringify({ builtAt, inputs: [...inputs].sort(), entries, packages, help }) + "\n");
  // Which modules load first, for tests and for finding what a start costs (esbuild's metafile).
  fs.writeFileSync(path.join(outdir, "meta.json"), JSON.stringify(metafile) + "\n");
}

/**
 * What `workbench --help` and `workbench <command> --help` print when stdout is not a terminal
 * (commander then wraps at 80 columns), rendered once by the build's own main.js: bin/workbench.cjs
 * prints it without loading commander, for as long as the sources the start loads are current.
 * In a terminal, help is rendered for its width as before.
 */
function renderHelp() {
  const script = `
const { main } = await import(${JSON.stringify(pathToFileURL(path.join(outdir, "main.js")).href)});
const write = process.stdout.write.bind(process.stdout);
async function render(args) {
  let text = "";
  process.stdout.write = (chunk) => ((text += chunk), true);
  try {
    return (await main(args)) === 0 ? text : null;
  } finally {
    process.stdout.write = write;
  }
}
const out = { "": await render(["--help"]) };
const commands = out[""]?.split("\\nCommands:\\n")[1]?.split("\\n").flatMap((l) => /^  ([a-z][a-z-]*)\\b/.exec(l)?.[1] ?? []) ?? [];
for (const c of commands) if (c !== "help") out[c] = await render([c, "--help"]);
write(JSON.stringify(out));`;
  const render = (cwd, env) => {
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd, env: { PATH: process.env.PATH, WORKBENCH_APP_ROOT: root, ...env }, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    if (r.status !== 0) throw new Error(`build-cli: rendering help failed (exit ${r.status})`);
    return JSON.parse(r.stdout);
  };
  // Rendered twice, from other folders with other settings: a text that shows the working
  // folder or a setting as a default (load-context's --project) differs, and is left to commander.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wb-help-"));
  try {
    const a = render(root, {});
    const b = render(tmp, { PORT: "3999", HOST: "0.0.0.0", WORKBENCH_DATA_DIR: path.join(tmp, "data"), WORKBENCH_MODE: "team" });
    const help = Object.fromEntries(Object.entries(a).filter(([k, v]) => typeof v === "string" && b[k] === v));
    if (!help[""]) throw new Error("build-cli: the program's help did not render the same twice");
    return help;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--force") || !cliBuildIsCurrent()) {
    process.stderr.write("setup: compiling the CLI\n");
    await buildCli();
  }
}
