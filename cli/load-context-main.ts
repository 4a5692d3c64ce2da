import path from "node:path";
import { parseArgs } from "node:util";
import { ProjectFs } from "../lib/core/project-fs";
import { findProjectByRoot, getProjectHead } from "../lib/db/repositories/projects";
import { unchangedStats } from "../lib/indexer/unchanged";
import { readInventory, readLoadContext } from "../lib/inventory/read-context";
import { shellHints } from "../lib/inventory/shell-hints";
import { holdsAgentArtifacts } from "../lib/projects/artifact-probe";
import { routeConsole, stderr, stdout } from "./output";

/**
 * `workbench load-context` when nothing changed since the last index: bin/workbench.cjs loads
 * this module directly, without commander, the indexer, zod or the Prisma client, so an agent
 * asking for context per ticket pays for a handful of stats and queries (issue 18's 150 ms).
 *
 * It answers only the plain forms (`load-context [query] [--project <path>]`) for a project
 * already registered whose freshness record still holds, and without --project only when the
 * current folder holds agent artifacts; anything else (another option, a project to add or
 * re-index, a folder that is no project, any failure) returns null before writing a byte, and
 * the full CLI then runs the command from the start, with its own messages and exit codes.
 */
export async function main(argv: string[]): Promise<number | null> {
  const args = plainArgs(argv);
  if (!args) return null;
  routeConsole();
  try {
    const pfs = ProjectFs.openSync(path.resolve(args.project ?? process.cwd()));
    if (args.project === undefined && !holdsAgentArtifacts(pfs)) return null;
    const project = await findProjectByRoot(pfs.root);
    if (!project || !(await unchangedStats(project.id))) return null;
    const { query } = args;
    const answer =
      query === undefined
        ? { query, ...(await readInventory(project.id)) }
        : await readLoadContext(await getProjectHead(project.id), query).then((loaded) => ({ query, mode: loaded.result.mode, markdown: loaded.markdown }));
    const hints = shellHints(answer, args.project ?? null);
    stdout.text(answer.markdown);
    if (hints) stderr.text(hints);
    return 0;
  } catch {
    return null;
  }
}

/** The arguments when they are of the plain forms; null for anything the full CLI must judge. */
function plainArgs(argv: string[]): { query: string | undefined; project: string | undefined } | null {
  if (argv.includes("--")) return null;
  try {
    const { values, positionals } = parseArgs({ args: argv, options: { project: { type: "string" } }, allowPositionals: true, strict: true });
    if (positionals.length > 1) return null;
    return { query: positionals[0], project: values.project };
  } catch {
    return null;
  }
}
