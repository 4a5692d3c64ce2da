#!/usr/bin/env node
// Entry point of the `workbench` CLI. Runs the compiled CLI (dist/cli, built by
// scripts/build-cli.mjs during setup) when it is current, because loading tsx and
// transpiling costs about half a second per run; otherwise the TypeScript sources via tsx.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.WORKBENCH_APP_ROOT ??= root;

function compiledIsCurrent() {
  if (process.env.WORKBENCH_CLI_FROM_SOURCE === "1") return false;
  try {
    const { builtAt, inputs } = JSON.parse(fs.readFileSync(path.join(root, "dist", "cli", "inputs.json"), "utf8"));
    return inputs.every((f) => fs.statSync(path.join(root, f)).mtimeMs <= builtAt);
  } catch {
    return false;
  }
}

const args = process.argv.slice(2);
// The reducer's process is timed as a whole: it starts from its own module, without commander
// and the other commands (its --help still goes the usual way).
const reduceOnly = args[0] === "reduce" && !args.some((a) => a === "--help" || a === "-h");
const name = reduceOnly ? "reduce-main" : "main";
let entry;
if (compiledIsCurrent()) {
  entry = path.join(root, "dist", "cli", `${name}.js`);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  entry = path.join(root, "cli", `${name}.ts`);
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(reduceOnly ? args.slice(1) : args);
