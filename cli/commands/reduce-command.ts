import type { Command } from "commander";
import { terminalSafe } from "../../lib/core/terminal";

export interface ReduceCliIo {
  out(text: string): void;
  err(text: string): void;
}

/**
 * The command itself: `args` as the user typed them after `reduce`; returns the exit code.
 * The spec folder is the first argument not starting with `--`, as in the reference. Files
 * are read and written only inside the repository holding the spec folder (its nearest
 * ancestor with `.git`, else the spec folder itself).
 */
export async function runReduceCommand(args: string[], options: { referenceLayoutOnly?: boolean }, io: ReduceCliIo): Promise<number> {
  const specFolder = args.find((a) => !a.startsWith("--"));
  if (!specFolder) {
    io.err("Usage: workbench reduce <spec-folder>\n");
    return 1;
  }
  try {
    const { reduceContextStateAsync, summaryText } = await import("../../lib/deep-context/reducer");
    const result = await reduceContextStateAsync(specFolder, { layouts: options.referenceLayoutOnly ? "reference" : "both" });
    // Packet files not read (links out of the repository, pipes, nesting too deep): named, so
    // nothing is skipped silently. Their names are repository text, hence terminalSafe.
    for (const w of result.fileWarnings) io.err(`[deep-context] warning: ${terminalSafe(w.message)}\n`);
    if (result.stateLogReading === "corrupt_lines_kept") {
      const first = result.corruptionWarnings[0];
      io.err(
        `[deep-context] note: ${result.corruptionWarnings.length} line(s) of the state log could not be read${first ? ` (first: line ${first.line})` : ""}; other lines follow them, so the file is left whole and every valid line is read (the reference reducer would cut the file at the first bad line)\n`,
      );
    }
    if (result.labelFirstSeatFiles > 0) {
      io.err(`[deep-context] note: read ${result.labelFirstSeatFiles} seat file(s) in the seats/{label}/iter-NNN/ layout, which the reference reducer ignores (--reference-layout-only to skip them)\n`);
    }
    io.out(summaryText(result.summary));
    return 0;
  } catch (error) {
    io.err(`[deep-context] reducer failed: ${terminalSafe(error instanceof Error ? error.message : String(error))}\n`);
    return 3;
  }
}

/**
 * `workbench reduce <spec-folder>`: the deep-context reducer, a drop-in for the reference
 * `node …/deep-context/scripts/reduce-state.cjs <spec-folder>` — same files, same stdout
 * summary, exit 1 without a spec folder and 3 when the reduce fails. Like the reference it
 * takes the first argument not starting with `--` and ignores unknown `--flags`.
 *
 * The reducer is imported only when the command runs, so the rest of the CLI does not pay
 * for it (and it pulls in no database or UI code).
 */
export function registerReduce(program: Command, setCode: (c: number) => void): void {
  program
    .command("reduce")
    .description("Reduce a deep-context packet ({spec-folder}/context/): write findings-registry.json and deep-context-dashboard.md there and print a JSON summary (exit 1: no spec folder, 3: the reduce failed).")
    .argument("[spec-folder]", "spec folder whose context/ holds the packet (deep-context-state.jsonl, seats/…)")
    .option("--reference-layout-only", "read seat files only as seats/iter-NNN/{label}.json, ignoring seats/{label}/iter-NNN/*.json (what the reference reducer does)")
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (_first: string | undefined, opts: { referenceLayoutOnly?: boolean }, cmd: Command) => {
      const io: ReduceCliIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };
      setCode(await runReduceCommand(cmd.args, opts, io));
    });
}
