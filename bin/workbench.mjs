#!/usr/bin/env node
// Entry point of the `workbench` CLI: runs the TypeScript CLI through tsx's loader.
import { register } from "tsx/esm/api";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.WORKBENCH_APP_ROOT ??= root;
register();
const { main } = await import(pathToFileURL(path.join(root, "cli", "main.ts")).href);
process.exitCode = await main(process.argv.slice(2));
