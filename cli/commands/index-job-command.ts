import type { Command } from "commander";

/**
 * `workbench index-job <job-id>`: one server index job in a process of its own, started by the
 * server (lib/indexer/jobs.ts) over an IPC channel. Not for people, so not in the help.
 */
export function registerIndexJob(program: Command, setCode: (c: number) => void): void {
  program
    .command("index-job", { hidden: true })
    .description("Run one index job the server queued (the server starts it).")
    .argument("<job-id>", "the queued job")
    .option("--full", "re-read every file")
    .action(async (jobId: string, opts: { full?: boolean }) => {
      if (process.channel) {
        // The channel must not keep this process alive, and its end means the server has ended:
        // the job ends with it, its staging area unapplied, and the server marks it interrupted on restart.
        process.channel.unref();
        process.on("disconnect", () => process.exit(2));
      }
      const { runIndexJob } = await import("../../lib/indexer/job-child");
      // Cancelled: the server has marked the job; ending here drops the staging area.
      const status = await runIndexJob(jobId, { full: opts.full === true, onCancelled: () => process.exit(0) });
      const { closeDb } = await import("../../lib/db/client");
      await closeDb();
      setCode(status === "succeeded" ? 0 : 1);
    });
}
