import path from "node:path";
import { parseArgs } from "node:util";
import { ProjectFs } from "../lib/core/project-fs";
import { findProjectByRoot, getProjectHead } from "../lib/db/repositories/projects";
import { unchangedStats } from "../lib/indexer/unchanged";
import { inventoryMarkdown, readLoadContext } from "../lib/inventory/read-context";
import { routeConsole, stdout } from "./output";

/**
 * `workbench load-context` when nothing changed since the last index: bin/workbench.cjs loads
 * this module directly, without commander, the indexer, zod or the Prisma client, so an agent
 * asking for context per ticket pays for a handful of stats and queries (issue 18's 150 ms).
 *
 * It answers only the plain forms (`load-context [query] [--project <path>]`) for a project
 * already registered whose freshness record still holds; anything else (another option, a
 * project to add or re-index, any failure) returns null before writing a byte, and the full
 * CLI then runs the command from the start, with its own messages and exit codes.
 */
export async function main(argv: string[]): Promise<number | null> {
  const args = plainArgs(argv);
  if (!args) return null;
  routeConsole();
  try {
    const root = ProjectFs.openSync(path.resolve(args.project)).root;
    const project = await findProjectByRoot(root);
    if (!project || !(await unchangedStats(project.id))) return null;
    const out = args.query === undefined ? await inventoryMarkdown(project.id) : (await readLoadContext(await getProjectHead(project.id), args.query)).markdown;
    stdout.text(out);
    return 0;
  } catch {
    return null;
  }
}

/** The arguments when they are of the plain forms; null for anything the full CLI must judge. */
function plainArgs(argv: string[]): { query: string | undefined; project: string } | null {
  if (argv.includes("--")) return null;
  try {
    const { values, positionals } = parseArgs({ args: argv, options: { project: { type: "string" } }, allowPositionals: true, strict: true });
    if (positionals.length > 1) return null;
    return { query: positionals[0], project: values.project ?? process.cwd() };
  } catch {
    return null;
  }
}
