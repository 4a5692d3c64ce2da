#!/usr/bin/env node
/**
 * Compiles the CLI (cli/main.ts and the lib code it imports) into dist/cli/ with esbuild,
 * so `workbench` starts in plain Node instead of loading tsx and transpiling on every run.
 * npm packages stay external (resolved from node_modules). dist/cli/inputs.json lists the
 * source files, so bin/workbench.mjs can fall back to the sources when one is newer.
 * Idempotent and quick when the build is current.
 */
import { build } from "esbuild";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outdir = path.join(root, "dist", "cli");
const manifest = path.join(outdir, "inputs.json");

export function cliBuildIsCurrent() {
  try {
    const { builtAt, inputs } = JSON.parse(fs.readFileSync(manifest, "utf8"));
    return inputs.every((f) => fs.statSync(path.join(root, f)).mtimeMs <= builtAt);
  } catch {
    return false;
  }
}

export async function buildCli() {
  const builtAt = Date.now();
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    // reduce-main.ts: the reducer's own entry (bin/workbench.mjs), without commander and the other commands.
    entryPoints: ["cli/main.ts", "cli/reduce-main.ts"],
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    outdir,
    metafile: true,
    logLevel: "warning",
    // The generated Prisma client reads __dirname / require in ESM; give it both.
    banner: {
      js: 'import { createRequire as __wbCreateRequire } from "node:module"; const require = __wbCreateRequire(import.meta.url);',
    },
  });
  const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.startsWith("node_modules/"));
  fs.writeFileSync(manifest, JSON.stringify({ builtAt, inputs }) + "\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--force") || !cliBuildIsCurrent()) {
    process.stderr.write("setup: compiling the CLI\n");
    await buildCli();
  }
}
