/**
 * What the CLI loads when it starts (issue 18: `--help` and the context commands start fast):
 * commands import their implementation when they run, so `--help` loads commander and the
 * commands' descriptions only, `loader` no database or zod, `load-context` no tokenizer. The
 * checks read the build's esbuild metafile and watch what a real run loads; none is timed
 * (bench/cli-start.bench.ts times them).
 *
 * Also the two-step currency check of bin/workbench.cjs: a changed source that `--help` does
 * not load leaves `--help` on the compiled CLI, but a command that loads it runs the sources.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli, cliBuildIsCurrent } from "../../../scripts/build-cli.mjs";

const root = path.resolve(import.meta.dirname, "../../..");
const sample = path.join(root, "examples/sample-project");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wb-cli-start-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

interface Metafile {
  inputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
  outputs: Record<string, { entryPoint?: string; imports: { path: string; kind: string; external?: boolean }[] }>;
}
interface Manifest {
  builtAt: number;
  inputs: string[];
  entries: Record<string, { start: string[]; reachable: string[] }>;
  packages: Record<string, string>;
}

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, "utf8")) as T;

/** Every source a module can load through esbuild's graph of source imports, and the npm packages they import. */
function closure(meta: Metafile, from: string, withDynamic: boolean): { sources: Set<string>; packages: Set<string> } {
  const sources = new Set<string>();
  const packages = new Set<string>();
  const visit = (f: string) => {
    if (sources.has(f) || !meta.inputs[f]) return;
    sources.add(f);
    for (const i of meta.inputs[f].imports) {
      if (!withDynamic && i.kind === "dynamic-import") continue;
      if (i.external) packages.add(i.path);
      else visit(i.path);
    }
  };
  visit(from);
  return { sources, packages };
}

// A module hook that names, on stderr, every module loaded through the ESM loader (a load
// hook that imports node:fs itself, rather than at its top, leaves the program unsettled: exit 13).
const HOOK = 'import { writeSync } from "node:fs"; export async function load(u, c, n) { writeSync(2, `LOADED ${u}\\n`); return n(u, c); }';
const REGISTER = `import { register } from "node:module"; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK)}`)});`;
// The bin and load-context's entry are CommonJS: what they require never meets the ESM hook,
// so Module#load names each file too, as cjs:<url> (a preload: --require takes no data: URL).
const CJS_TRACE = path.join(tmp, "trace-require.cjs");
fs.writeFileSync(
  CJS_TRACE,
  'const M = require("node:module"); const { writeSync } = require("node:fs"); const { pathToFileURL } = require("node:url");\n' +
    "const load = M.prototype.load; M.prototype.load = function (file) { writeSync(2, `LOADED cjs:${pathToFileURL(file).href}\\n`); return load.call(this, file); };\n",
);

/** `node <appRoot>/bin/workbench.cjs …` with the hooks: exit code, stdout, and the URLs it loaded. */
function traced(appRoot: string, ...args: string[]) {
  return tracedWith({}, appRoot, ...args);
}

function tracedWith(extraEnv: Record<string, string>, appRoot: string, ...args: string[]) {
  return tracedAt(undefined, extraEnv, appRoot, ...args);
}

/** As tracedWith, started in `cwd` (this process's working folder when undefined). */
function tracedAt(cwd: string | undefined, extraEnv: Record<string, string>, appRoot: string, ...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.WORKBENCH_APP_ROOT;
  delete env.WORKBENCH_CLI_FROM_SOURCE;
  Object.assign(env, extraEnv);
  const r = spawnSync(process.execPath, ["--require", CJS_TRACE, "--import", `data:text/javascript,${encodeURIComponent(REGISTER)}`, path.join(appRoot, "bin/workbench.cjs"), ...args], {
    encoding: "utf8",
    timeout: 60_000,
    env,
    cwd,
  });
  const loaded = r.stderr
    .split("\n")
    .filter((l) => l.startsWith("LOADED "))
    .map((l) => l.slice("LOADED ".length));
  return { status: r.status, stdout: r.stdout, loaded, stderr: r.stderr.split("\n").filter((l) => l && !l.startsWith("LOADED ")) };
}

/** npm packages among loaded URLs, by name (`@prisma/client`, `zod`). */
const packagesIn = (urls: string[]) => [...new Set(urls.flatMap((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1] ?? []))].sort();
/** Whether a run went through the TypeScript sources (tsx) rather than dist/cli. */
const fromSources = (urls: string[]) => urls.some((u) => u.endsWith(".ts"));

/**
 * A copy of the app (sources, build, entry; prisma/ when a database is opened) with its own
 * mtimes, under tmp/<name>; node_modules is a link to this checkout's unless `modules` is false.
 */
function copyApp(name: string, opts: { prisma?: boolean; modules?: boolean } = {}): string {
  const app = path.join(tmp, name);
  for (const d of ["bin", "cli", "lib", "dist/cli", ...(opts.prisma ? ["prisma"] : [])]) fs.cpSync(path.join(root, d), path.join(app, d), { recursive: true, preserveTimestamps: true });
  fs.mkdirSync(path.join(app, "scripts"));
  fs.copyFileSync(path.join(root, "scripts/cli-build-state.cjs"), path.join(app, "scripts/cli-build-state.cjs"));
  for (const f of ["package.json", "tsconfig.json"]) fs.copyFileSync(path.join(root, f), path.join(app, f));
  if (opts.modules !== false) fs.symlinkSync(path.join(root, "node_modules"), path.join(app, "node_modules"));
  return app;
}

/**
 * A copy of the sample project, indexed into its own data folder; returns the project and the
 * environment naming that folder. The index job runs with its clock 5 s on, so the files just
 * copied are not within the freshness record's racy window.
 */
function indexedSample(name: string): { project: string; env: { WORKBENCH_DATA_DIR: string } } {
  const project = path.join(tmp, `${name}-sample`);
  fs.cpSync(sample, project, { recursive: true, filter: (src) => !src.split(path.sep).includes(".git") });
  const env = { WORKBENCH_DATA_DIR: path.join(tmp, `${name}-data`) };
  const later = `data:text/javascript,${encodeURIComponent("const now = Date.now; Date.now = () => now() + 5000;")}`;
  const indexed = spawnSync(process.execPath, ["--import", later, path.join(root, "bin/workbench.cjs"), "index", project], { encoding: "utf8", env: { ...process.env, ...env } });
  expect(indexed.status, indexed.stderr).toBe(0);
  return { project, env };
}

describe("the CLI's start", () => {
  beforeAll(async () => {
    if (!cliBuildIsCurrent()) await buildCli();
  }, 60_000);

  it("loads only commander, the command descriptions and the output helpers before a command runs", () => {
    const manifest = readJson<Manifest>(path.join(root, "dist/cli/inputs.json"));
    // lib/mcp/tool-names.ts: the names --help lists, without the MCP server (which takes a second to load).
    for (const f of manifest.entries.main!.start) expect(f).toMatch(/^cli\/(main|output)\.ts$|^cli\/commands\/[a-z-]+-command\.ts$|^lib\/core\/(errors|terminal)\.ts$|^lib\/mcp\/tool-names\.ts$/);
    const meta = readJson<Metafile>(path.join(root, "dist/cli/meta.json"));
    // What main.ts imports statically: no npm package but commander, bundled into main.js.
    expect([...closure(meta, "cli/main.ts", false).packages].filter((p) => !p.startsWith("node:"))).toEqual([]);
    const main = Object.entries(meta.outputs).find(([, o]) => o.entryPoint === "cli/main.ts")!;
    const visit = (out: string, seen: Set<string>): Set<string> => {
      if (seen.has(out)) return seen;
      seen.add(out);
      for (const i of meta.outputs[out]?.imports ?? []) if (i.kind !== "dynamic-import" && !i.external) visit(i.path, seen);
      return seen;
    };
    const external = [...visit(main[0], new Set())].flatMap((o) => meta.outputs[o]!.imports.filter((i) => i.external && i.kind !== "dynamic-import").map((i) => i.path));
    expect(external.filter((p) => !p.startsWith("node:"))).toEqual([]);
  });

  it("gives load-context no tokenizer and loader no database, zod or git", () => {
    const meta = readJson<Metafile>(path.join(root, "dist/cli/meta.json"));
    const loadContext = closure(meta, "cli/commands/load-context-command.ts", true);
    expect(loadContext.packages).not.toContain("js-tiktoken");
    expect(loadContext.sources).not.toContain("lib/core/tokens.ts");
    const loader = closure(meta, "cli/commands/loader-command.ts", true);
    for (const p of ["@prisma/client/runtime/client", "@prisma/adapter-better-sqlite3", "better-sqlite3", "zod", "simple-git"]) expect(loader.packages).not.toContain(p);
    expect([...loader.sources].filter((f) => f.startsWith("lib/db/"))).toEqual([]);
  });

  it("runs --help and loader with no module but what they need", () => {
    const help = traced(root, "--help");
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("Usage: workbench [options] [command]");
    expect(fromSources(help.loaded)).toBe(false);
    expect(packagesIn(help.loaded)).toEqual([]);

    const loader = traced(root, "loader", "--project", sample, "How do we replay payment webhooks when the provider retries fail?");
    expect(loader.status).toBe(0);
    expect(loader.stdout).toContain("### `docs/runbooks/payment-webhook-replay.md`");
    // The tokenizer (js-tiktoken and its base64-js) counts the pack; nothing else from npm.
    expect(packagesIn(loader.loaded).filter((p) => p !== "base64-js")).toEqual(["js-tiktoken"]);
  });

  it("prints --help as the build rendered it, without commander, and other help through commander", () => {
    const help = traced(root, "--help");
    expect(help.loaded.some((u) => u.endsWith("/dist/cli/main.js"))).toBe(false);
    const rendered = tracedWith({ WORKBENCH_CLI_FROM_SOURCE: "1" }, root, "--help");
    expect(fromSources(rendered.loaded)).toBe(true);
    expect([help.status, help.stdout]).toEqual([0, rendered.stdout]);
    // A command's help is rendered ahead too, load-context's among them (its --project no longer defaults to the working folder).
    const loadContext = traced(root, "load-context", "--help");
    expect(loadContext.loaded.some((u) => u.endsWith("/dist/cli/main.js"))).toBe(false);
    expect(loadContext.stdout).toContain("--project <path>");
    expect(loadContext.stdout).not.toContain(root);
    // A subcommand's help is not: commander answers it.
    const validate = traced(root, "pack", "validate", "--help");
    expect(validate.loaded.some((u) => u.endsWith("/dist/cli/main.js"))).toBe(true);
    expect([validate.status, validate.stdout]).toEqual([0, expect.stringContaining("Usage: workbench pack validate")]);
  });

  it("answers load-context on an unchanged project from its own entry: no commander, zod, Prisma or indexer", () => {
    const { project, env } = indexedSample("lc");

    const fast = tracedWith(env, root, "load-context", "JIRA-123", "--project", project);
    expect(fast.status, fast.stderr.join("\n")).toBe(0);
    expect(fast.stdout).toMatch(/^Context: JIRA-123\n/);
    expect(fast.loaded.some((u) => u.endsWith("/dist/cli/load-context-main.cjs"))).toBe(true);
    // Required: nothing of the app's or of npm's goes through the ESM loader. (The bin itself
    // does here only because a module hook is registered, which sends the main module there.)
    expect(fast.loaded.filter((u) => u.startsWith("file:") && !u.endsWith("/bin/workbench.cjs"))).toEqual([]);
    expect(fast.loaded.some((u) => u.endsWith("/dist/cli/main.js"))).toBe(false);
    // better-sqlite3's JavaScript is bundled into the entry: from node_modules, only its addon.
    expect(fast.loaded.filter((u) => u.includes("/node_modules/")).map((u) => u.slice(u.indexOf("/node_modules/")))).toEqual(["/node_modules/better-sqlite3/build/Release/better_sqlite3.node"]);
    expect(fast.loaded.filter((u) => /index-project|inventory\/scan/.test(u))).toEqual([]);

    // Started in the project, without --project: the same answer from the same entry (the folder holds agent artifacts).
    const here = tracedAt(project, env, root, "load-context", "JIRA-123");
    expect([here.status, here.stdout]).toEqual([0, fast.stdout]);
    expect(here.loaded.some((u) => u.endsWith("/dist/cli/main.js"))).toBe(false);

    // Something changed: the entry declines before writing anything, and main runs the command.
    fs.writeFileSync(path.join(project, ".claude/work/PROJ-42/late-note.md"), "# A late note\n");
    const full = tracedWith(env, root, "load-context", "JIRA-123", "--project", project);
    expect(full.loaded.some((u) => u.endsWith("/dist/cli/main.js"))).toBe(true);
    expect([full.status, full.stdout]).toEqual([0, fast.stdout]);
  });

  it("answers load-context through the installed better-sqlite3 when its addon is not where the build looks", () => {
    const { project, env } = indexedSample("lc-debug");
    const expected = tracedWith(env, root, "load-context", "JIRA-123", "--project", project);

    // A copy of the app whose better-sqlite3 has its addon in build/Debug, where only `bindings` looks.
    const app = copyApp("app-debug-addon", { prisma: true, modules: false });
    const modules = path.join(app, "node_modules");
    fs.mkdirSync(modules);
    for (const name of fs.readdirSync(path.join(root, "node_modules"))) if (name !== "better-sqlite3") fs.symlinkSync(path.join(root, "node_modules", name), path.join(modules, name));
    const sqlite = path.join(modules, "better-sqlite3");
    for (const f of ["package.json", "lib"]) fs.cpSync(path.join(root, "node_modules/better-sqlite3", f), path.join(sqlite, f), { recursive: true });
    fs.mkdirSync(path.join(sqlite, "build/Debug"), { recursive: true });
    fs.copyFileSync(path.join(root, "node_modules/better-sqlite3/build/Release/better_sqlite3.node"), path.join(sqlite, "build/Debug/better_sqlite3.node"));

    const fast = tracedWith(env, app, "load-context", "JIRA-123", "--project", project);
    expect(fast.status, fast.stderr.join("\n")).toBe(0);
    expect(fast.stdout).toBe(expected.stdout);
    expect(fast.loaded.some((u) => u.endsWith("/dist/cli/load-context-main.cjs"))).toBe(true);
    expect(fast.loaded.some((u) => u.endsWith("/dist/cli/main.js"))).toBe(false);
    expect(fast.loaded.some((u) => u.endsWith("/node_modules/better-sqlite3/build/Debug/better_sqlite3.node"))).toBe(true);
    expect(packagesIn(fast.loaded)).toEqual(["better-sqlite3", "bindings", "file-uri-to-path"]);
  });

  it("builds load-context's entry as strict CommonJS, and exits 1 at once when a start fails", () => {
    expect(fs.readFileSync(path.join(root, "dist/cli/load-context-main.cjs"), "utf8").split("\n")[0]).toBe('"use strict";');

    // A broken entry that also leaves a timer running: the error is printed and the process ends.
    const app = copyApp("app-broken-entry");
    fs.writeFileSync(path.join(app, "dist/cli/load-context-main.cjs"), 'setInterval(() => undefined, 1000);\nthrow new Error("a broken build");\n');
    const r = spawnSync(process.execPath, [path.join(app, "bin/workbench.cjs"), "load-context", "JIRA-123", "--project", sample], {
      encoding: "utf8",
      timeout: 20_000,
      env: { ...process.env, WORKBENCH_DATA_DIR: path.join(tmp, "broken-data") },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("a broken build");
  });

  it("checks the packages bundled into load-context's entry only when that entry runs", () => {
    const app = copyApp("app-other-sqlite");
    // As if better-sqlite3 had been upgraded since the build.
    const file = path.join(app, "dist/cli/inputs.json");
    const manifest = readJson<Manifest & { entries: Record<string, { packages?: Record<string, string> }> }>(file);
    expect(Object.keys(manifest.entries["load-context-main"]!.packages ?? {})).toEqual(["better-sqlite3"]);
    manifest.entries["load-context-main"]!.packages = { "better-sqlite3": "0.0.1" };
    fs.writeFileSync(file, JSON.stringify(manifest));

    const help = traced(app, "--help");
    expect([help.status, fromSources(help.loaded)]).toEqual([0, false]);
    const loadContext = traced(app, "load-context", "--project", path.join(tmp, "no-such-project"));
    expect(loadContext.loaded.some((u) => u.endsWith("/dist/cli/load-context-main.cjs"))).toBe(false);
    expect(fromSources(loadContext.loaded)).toBe(true);
  });

  it("keeps --help on the compiled CLI when a source only a command loads changed, and runs that command from the sources", () => {
    const app = copyApp("app");
    const manifest = readJson<Manifest>(path.join(app, "dist/cli/inputs.json"));
    const later = new Date(manifest.builtAt + 60_000);
    const prompt = ["loader", "--project", sample, "why server-side sessions?"];

    const compiled = { help: traced(app, "--help"), loader: traced(app, ...prompt) };
    expect(fromSources(compiled.help.loaded) || fromSources(compiled.loader.loaded)).toBe(false);

    // lib/moc/walk.ts is the loader's, not the start's.
    expect(manifest.entries.main!.start).not.toContain("lib/moc/walk.ts");
    fs.utimesSync(path.join(app, "lib/moc/walk.ts"), later, later);
    const help = traced(app, "--help");
    expect(fromSources(help.loaded)).toBe(false);
    expect([help.status, help.stdout]).toEqual([0, compiled.help.stdout]);
    const loader = traced(app, ...prompt);
    expect(fromSources(loader.loaded)).toBe(true);
    expect(loader.loaded.some((u) => u.endsWith("/dist/cli/main.js"))).toBe(true);
    expect([loader.status, loader.stdout, loader.stderr]).toEqual([0, compiled.loader.stdout, compiled.loader.stderr]);
    // A usage error parses only: it stays compiled.
    const usage = traced(app, "loader");
    expect(fromSources(usage.loaded)).toBe(false);
    expect(usage.status).toBe(2);

    // cli/output.ts is the start's: --help itself runs from the sources.
    fs.utimesSync(path.join(app, "cli/output.ts"), later, later);
    const fromTs = traced(app, "--help");
    expect(fromSources(fromTs.loaded)).toBe(true);
    expect(fromTs.loaded.some((u) => u.endsWith("/dist/cli/main.js"))).toBe(false);
    expect([fromTs.status, fromTs.stdout]).toEqual([0, compiled.help.stdout]);
  });
});
