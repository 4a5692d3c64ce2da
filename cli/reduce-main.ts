import { runReduceCommand } from "./commands/reduce-command";

/**
 * `workbench reduce` without the rest of the CLI: bin/workbench.cjs loads this module
 * directly for the reducer, whose whole process is timed against the reference, so it skips
 * commander and every other command's module (about 150 ms). Arguments, output and exit
 * codes are those of the commander route; `--help` still goes through commander.
 *
 * Once the summary is out the process ends at once (process.exit), when nothing is left in
 * stdout's or stderr's buffers (on Linux, writes to files, pipes and terminals are
 * synchronous, so that is always so there): an exit through the empty event loop also tears
 * down the heap the reduce grew, a few milliseconds for nothing.
 */
export async function main(args: string[]): Promise<number> {
  const code = await runReduceCommand(
    args.filter((a) => a !== "--reference-layout-only"),
    { referenceLayoutOnly: args.includes("--reference-layout-only") },
    { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) },
  );
  if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit(code);
  return code;
}
