import type { Command } from "commander";

/**
 * `workbench run-views`: the server's run views in a process of their own, started by the
 * server (lib/deep-context/view-host) over an IPC channel. Not for people, so not in the help.
 */
export function registerRunViews(program: Command): void {
  program
    .command("run-views", { hidden: true })
    .description("Compute deep-context run views for the server (the server starts it).")
    .action(async () => {
      if (!process.channel) {
        process.stderr.write("workbench run-views is started by the server, over an IPC channel.\n");
        process.exitCode = 2;
        return;
      }
      // The channel's end means the server has ended: so does this process.
      process.on("disconnect", () => process.exit(0));
      const { serveRunViews } = await import("../../lib/deep-context/view-host");
      serveRunViews();
      // Stays alive on the channel until the server goes.
      await new Promise<never>(() => undefined);
    });
}
