import type { Command } from "commander";
import { printJson, stdout } from "../output";

export function registerLoader(program: Command, _setCode: (c: number) => void): void {
  program
    .command("loader")
    .description("Print the context-loader pack (<!-- context-loader:v1 -->) that docs/ yields for a prompt.")
    .argument("<prompt>", "the user's prompt, verbatim (quote it)")
    .option("--project <path>", "project folder whose docs/ is walked (default: the current folder, when it holds agent artifacts)")
    .option("--json", "print the pack and the walk as JSON instead")
    .action(async (prompt: string, opts: { project?: string; json?: boolean }) => {
      const { projectFolder } = await import("./project-folder");
      const project = await projectFolder(opts.project, 'workbench loader --project <path> "<prompt>"');
      // Not ../../lib/moc/service: that one also serves indexed projects, with the database and zod.
      const { loaderForPath } = await import("../../lib/moc/loader");
      const res = await loaderForPath(project, prompt);
      if (opts.json) printJson(res, 2);
      else stdout.text(res.pack);
    });
}
