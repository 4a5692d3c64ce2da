#!/usr/bin/env node
// Entry point of the `workbench` CLI. Runs the compiled CLI (dist/cli, built by
// scripts/build-cli.mjs during setup) when it is current, because loading tsx and
// transpiling costs about half a second per run; otherwise the TypeScript sources via tsx.
//
// Currency is checked in two steps, so a start stats only the sources it loads: before
// loading, the sources of the modules the entry loads at once (for main: commander's program
// and the commands' descriptions, all --help needs); then, when a command is about to run,
// every other source of the build. A source changed after the build means the sources run
// instead, from the start: nothing of the command has run by then.
//
// `--help` when stdout is not a terminal is printed as the build rendered it, without commander.
// Two commands start from their own entry, without commander and the other commands:
// `reduce` (its whole process is timed against the reference) and `load-context` (asked once
// per ticket by agents). load-context's entry answers only when nothing changed since the last
// index; otherwise it returns null having written nothing, and main runs the command.
//
// CommonJS, as is load-context's entry (built as one .cjs file): a start through the ESM loader
// also compiles the loader itself, and importing node:fs there loads fs/promises with the
// streams behind it (see bench/README.md, cli-start, for what load-context's start costs).
"use strict";
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { bundledPackagesCurrent, packagesCurrent, readCliManifest, sourcesCurrent } = require("../scripts/cli-build-state.cjs");

const root = path.resolve(__dirname, "..");
process.env.WORKBENCH_APP_ROOT ??= root;

const args = process.argv.slice(2);
const helpAsked = args.some((a) => a === "--help" || a === "-h");
const own = !helpAsked && args[0] === "reduce" ? "reduce-main" : !helpAsked && args[0] === "load-context" ? "load-context-main" : null;

async function runSources(name, entryArgs) {
  const { register } = await import("tsx/esm/api");
  register();
  const { main } = await import(pathToFileURL(path.join(root, "cli", `${name}.ts`)).href);
  return main(entryArgs);
}

/** The compiled entry's result, or undefined when a source it can load changed (run the sources then). */
async function runCompiled(manifest, name, entryArgs) {
  const entry = manifest.entries[name];
  if (name !== "main") {
    // Runs at once: everything it can load is checked first, and the packages bundled into it.
    if (!packagesCurrent(root, entry.packages) || !sourcesCurrent(root, manifest, entry.reachable)) return undefined;
    const file = path.join(root, "dist", "cli", entry.file ?? `${name}.js`);
    const { main } = entry.format === "cjs" ? require(file) : await import(pathToFileURL(file).href);
    return main(entryArgs);
  }
  if (!sourcesCurrent(root, manifest, entry.start)) return undefined;
  const loaded = new Set(entry.start);
  const { main } = await import(pathToFileURL(path.join(root, "dist", "cli", "main.js")).href);
  const code = await main(entryArgs, {
    beforeAction: () =>
      sourcesCurrent(
        root,
        manifest,
        manifest.inputs.filter((f) => !loaded.has(f)),
      ),
  });
  return code ?? undefined;
}

const manifest = process.env.WORKBENCH_CLI_FROM_SOURCE === "1" ? null : readCliManifest(root);
const compiled = manifest !== null && bundledPackagesCurrent(root, manifest);

async function run(name, entryArgs) {
  const code = compiled && manifest.entries?.[name] ? await runCompiled(manifest, name, entryArgs) : undefined;
  return code === undefined ? runSources(name, entryArgs) : code;
}

/**
 * The help text the build rendered for these arguments (`--help`, `<command> --help`), when
 * stdout is not a terminal (commander wraps at 80 columns then, as the build's rendering did)
 * and the sources the start loads are those of the build; null otherwise.
 */
function renderedHelp() {
  if (!compiled || process.stdout.isTTY || !manifest.help) return null;
  const isHelp = (a) => a === "--help" || a === "-h";
  const key = args.length === 1 && isHelp(args[0]) ? "" : args.length === 2 && isHelp(args[1]) ? args[0] : null;
  if (key === null || !Object.hasOwn(manifest.help, key)) return null;
  return sourcesCurrent(root, manifest, manifest.entries.main.start) ? manifest.help[key] : null;
}

async function start() {
  const help = renderedHelp();
  if (help !== null) {
    process.stdout.write(help);
    return 0;
  }
  const first = own ? await run(own, args.slice(1)) : null;
  return first ?? (await run("main", args));
}

// A rejection is left unhandled, as a failed top-level await was: Node prints it and exits 1
// at once, whatever is still open.
void start().then((code) => {
  process.exitCode = code;
});
