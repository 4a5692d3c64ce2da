import type { Command } from "commander";
import { stderr, stdout } from "../output";

const LOAD_CONTEXT_USAGE = "workbench load-context [query] --project <path>";

export function registerLoadContext(program: Command, _setCode: (c: number) => void): void {
  program
    .command("load-context")
    .description("Print the load-context summary for a topic, or the inventory when no query is given.")
    .argument("[query]", "identifier or free-text query (quote it); omit for the inventory")
    .option("--project <path>", "project folder (default: the current folder, when it holds agent artifacts)")
    .option("--verbose", "show indexing progress on stderr")
    .action(async (query: string | undefined, opts: { project?: string; verbose?: boolean }) => {
      const { projectFolder } = await import("./project-folder");
      const project = await projectFolder(opts.project, LOAD_CONTEXT_USAGE, async () => (await import("../../lib/projects/service")).listProjects());
      const { ensureIndexed } = await import("./shared");
      const { readInventory, loadContextForProject } = await import("../../lib/inventory/service");
      const { shellHints } = await import("../../lib/inventory/shell-hints");
      const { projectId } = await ensureIndexed(project, { quiet: !opts.verbose });
      const answer =
        query === undefined ? { query, ...(await readInventory(projectId)) } : await loadContextForProject(projectId, query).then((loaded) => ({ query, mode: loaded.result.mode, markdown: loaded.markdown }));
      stdout.text(answer.markdown);
      const hints = shellHints(answer, opts.project ?? null);
      if (hints) stderr.text(hints);
    });
}
