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
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundledPackagesCurrent, readCliManifest, sourcesCurrent } from "../scripts/cli-build-state.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.WORKBENCH_APP_ROOT ??= root;

const args = process.argv.slice(2);
// The reducer's process is timed as a whole: it starts from its own module, without commander
// and the other commands (its --help still goes the usual way).
const reduceOnly = args[0] === "reduce" && !args.some((a) => a === "--help" || a === "-h");
const name = reduceOnly ? "reduce-main" : "main";
const entryArgs = reduceOnly ? args.slice(1) : args;

async function runSources() {
  const { register } = await import("tsx/esm/api");
  register();
  const { main } = await import(pathToFileURL(path.join(root, "cli", `${name}.ts`)).href);
  return main(entryArgs);
}

async function runCompiled(manifest) {
  const entry = manifest.entries[name];
  if (reduceOnly) {
    // Runs at once: everything it can load is checked first.
    if (!sourcesCurrent(root, manifest, entry.reachable)) return null;
    const { main } = await import(pathToFileURL(path.join(root, "dist", "cli", "reduce-main.js")).href);
    return main(entryArgs);
  }
  if (!sourcesCurrent(root, manifest, entry.start)) return null;
  const loaded = new Set(entry.start);
  const { main } = await import(pathToFileURL(path.join(root, "dist", "cli", "main.js")).href);
  return main(entryArgs, {
    beforeAction: () =>
      sourcesCurrent(
        root,
        manifest,
        manifest.inputs.filter((f) => !loaded.has(f)),
      ),
  });
}

const manifest = process.env.WORKBENCH_CLI_FROM_SOURCE === "1" ? null : readCliManifest(root);
const compiled = manifest?.entries?.[name] && bundledPackagesCurrent(root, manifest) ? await runCompiled(manifest) : null;
process.exitCode = compiled ?? (await runSources());
