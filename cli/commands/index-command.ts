import type { Command } from "commander";
import { printJson, stderr } from "../output";

export function registerIndex(program: Command, _setCode: (c: number) => void): void {
  program
    .command("index")
    .description("Index or re-index a project (incremental; progress on stderr).")
    .argument("[project-path]", "folder of the project to index")
    .option("--url <git-url>", "instead of a folder: clone this git remote into the data folder (or fetch it when known), then index it")
    .option("--branch <name>", "with --url: the branch to follow (default: the remote's default branch)")
    .option("--json", "print the index statistics as JSON on stdout")
    .action(async (projectPath: string | undefined, opts: { json?: boolean; url?: string; branch?: string }) => {
      const { WorkbenchError } = await import("../../lib/core/errors");
      if ((projectPath === undefined) === (opts.url === undefined)) throw new WorkbenchError("INVALID_INPUT", "Give a project folder or --url <git-url> (one of them).");
      if (opts.branch !== undefined && opts.url === undefined) throw new WorkbenchError("INVALID_INPUT", "--branch goes with --url.");
      const { ensureIndexed, ensureRemoteIndexed } = await import("./shared");
      const { getDb } = await import("../../lib/db/client");
      const { plural } = await import("../../lib/core/plural");
      const { projectId, stats } = opts.url !== undefined ? await ensureRemoteIndexed(opts.url, opts.branch) : await ensureIndexed(projectPath!);
      const { syncRunSearch } = await import("../../lib/search/sync");
      await syncRunSearch(projectId);
      const db = await getDb();
      const warnings = await db.indexWarning.findMany({ where: { projectId }, orderBy: { relPath: "asc" } });
      for (const w of warnings.slice(0, 50)) stderr.line(`warning: ${w.message}`);
      if (warnings.length > 50) stderr.line(`warning: … and ${warnings.length - 50} more (see the project page)`);
      stderr.line(
        `indexed ${plural(stats.filesTotal, "file")} (${stats.filesChanged} changed, ${stats.filesRemoved} removed), ${plural(stats.topics, "topic")}, ` +
          `${plural(stats.documents, "document")} re-read, ${stats.gitSkipped ? "git unchanged" : plural(stats.commits, "commit")}, ${plural(warnings.length, "warning")} in ${stats.durationMs} ms`,
      );
      if (opts.json) printJson({ projectId, ...stats, warnings: warnings.length });
    });
}
