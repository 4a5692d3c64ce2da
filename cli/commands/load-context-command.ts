import type { Command } from "commander";
import { stdout } from "../output";

export function registerLoadContext(program: Command, _setCode: (c: number) => void): void {
  program
    .command("load-context")
    .description("Print the load-context summary for a topic, or the inventory when no query is given.")
    .argument("[query]", "identifier or free-text query (quote it); omit for the inventory")
    .option("--project <path>", "project folder", process.cwd())
    .option("--verbose", "show indexing progress on stderr")
    .action(async (query: string | undefined, opts: { project: string; verbose?: boolean }) => {
      const { ensureIndexed } = await import("./shared");
      const { inventoryMarkdown, loadContextForProject } = await import("../../lib/inventory/service");
      const { projectId } = await ensureIndexed(opts.project, { quiet: !opts.verbose });
      const out = query === undefined ? await inventoryMarkdown(projectId) : (await loadContextForProject(projectId, query)).markdown;
      stdout.text(out);
    });
}
