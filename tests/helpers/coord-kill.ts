/**
 * Shared by the kill -9 tests of the human writes to `.coord/` (tests/db/kill-memory-apply,
 * tests/db/kill-gate-decision): the writer process (tests/helpers/coord-writer.ts) compiled once
 * with esbuild, as scripts/build-cli.mjs compiles the CLI, because each kill point starts a
 * process: through tsx a start took ~1.1 s, compiled with its packages left to node_modules
 * ~0.55 s (0.30 s of CPU), with them bundled too ~0.21 s of CPU (resolving and linking zod's and
 * the others' modules was most of the rest); and a folder's files read whole, to compare a folder
 * after a kill with its states before and after.
 */
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { REPO } from "./kill-points";

/**
 * Compiles coord-writer.ts inside the repository, so the packages left out (native addons and
 * the database drivers, and Prisma's runtime, which load files of their own) resolve from
 * node_modules; returns the file and a cleanup.
 */
export async function buildCoordWriter(name: string): Promise<{ entry: string; remove: () => void }> {
  const dir = path.join(REPO, ".tmp", "kill-writers", `${name}-${process.pid}`);
  const entry = path.join(dir, "coord-writer.mjs");
  await build({
    entryPoints: [path.join(REPO, "tests", "helpers", "coord-writer.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // ESM builds first: a UMD main (jsonc-parser's) requires its parts by path at run time.
    mainFields: ["module", "main"],
    external: ["better-sqlite3", "pg", "pg-*", "@prisma/*"],
    outfile: entry,
    logLevel: "warning",
    // Bundled CommonJS code (Prisma's generated client) may call require.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  return { entry, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Every file below `dir` (relative, sorted) with its text. */
export function readTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else out.set(r, fs.readFileSync(path.join(dir, r), "utf8"));
    }
  };
  walk("");
  return out;
}

/** Replaces `dir` with a copy of `pristine`. */
export function restoreTree(pristine: string, dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(pristine, dir, { recursive: true });
}
