/**
 * Shared by the kill -9 tests of the human writes to `.coord/` (tests/db/kill-memory-apply,
 * tests/db/kill-gate-decision): the writer process (tests/helpers/coord-writer.ts) compiled once
 * with esbuild, as scripts/build-cli.mjs compiles the CLI, because each kill point starts a
 * process and tsx's start is twice the compiled one's (measured ~1.1 s against ~0.55 s); and
 * a folder's files read whole, to compare a folder after a kill with its states before and after.
 */
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { REPO } from "./kill-points";

/** Compiles coord-writer.ts inside the repository (its npm packages then resolve from node_modules); returns the file and a cleanup. */
export async function buildCoordWriter(name: string): Promise<{ entry: string; remove: () => void }> {
  const dir = path.join(REPO, ".tmp", "kill-writers", `${name}-${process.pid}`);
  const entry = path.join(dir, "coord-writer.mjs");
  await build({
    entryPoints: [path.join(REPO, "tests", "helpers", "coord-writer.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
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
