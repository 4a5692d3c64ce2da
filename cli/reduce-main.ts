import { runReduceCommand } from "./commands/reduce-command";

/**
 * `workbench reduce` without the rest of the CLI: bin/workbench.cjs loads this module
 * directly for the reducer, whose whole process is timed against the reference, so it skips
 * commander and every other command's module (about 150 ms). Arguments, output and exit
 * codes are those of the commander route; `--help` still goes through commander.
 */
export async function main(args: string[]): Promise<number> {
  return runReduceCommand(
    args.filter((a) => a !== "--reference-layout-only"),
    { referenceLayoutOnly: args.includes("--reference-layout-only") },
    { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) },
  );
}
