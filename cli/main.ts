import { Command, CommanderError } from "commander";
import { isWorkbenchError } from "../lib/core/errors";
import { registerAccount } from "./commands/account-command";
import { registerApi } from "./commands/api-command";
import { registerConverge } from "./commands/converge-command";
import { registerDb } from "./commands/db-command";
import { registerIndex } from "./commands/index-command";
import { registerIndexJob } from "./commands/index-job-command";
import { registerRunViews } from "./commands/run-views-command";
import { registerLoadContext } from "./commands/load-context-command";
import { registerLoader } from "./commands/loader-command";
import { registerMcp } from "./commands/mcp-command";
import { registerPack } from "./commands/pack-command";
import { registerPolicy } from "./commands/policy-command";
import { registerReduce } from "./commands/reduce-command";
import { registerServe } from "./commands/serve-command";
import { routeConsole, stderr, stdout } from "./output";

export interface MainHooks {
  /**
   * Called when a command's action is about to run, after the arguments parsed (so not for
   * help, --version or a usage error). Returning false stops main before the action, with
   * null as its result: bin/workbench.cjs then checks the rest of the compiled CLI's sources
   * only when a command runs, and runs the TypeScript sources instead when one changed.
   */
  beforeAction?: () => boolean;
}

/** Thrown from the preAction hook when beforeAction refuses; never leaves main. */
const NOT_RUN = Symbol("not run");

/** WORKBENCH_DEBUG, read only once something failed: the environment module (zod) is not for every start. */
async function debugging(): Promise<boolean> {
  const { readEnv } = await import("../lib/core/env");
  return Boolean(readEnv("WORKBENCH_DEBUG"));
}

/**
 * Runs the CLI and returns the exit code (null: see MainHooks); errors go to stderr, never a
 * stack trace. Commands import their modules when they run, so the start (and --help) loads
 * commander and the commands' descriptions only, and `workbench reduce` does not load the
 * database client or the indexer. Everything written for people goes through ./output.
 */
export async function main(argv: string[], hooks: MainHooks = {}): Promise<number | null> {
  routeConsole();
  // Commander echoes arguments in its errors, and a shell glob can make one a hostile file name.
  const program = new Command("workbench")
    .description("Context Workbench: index agent context, load it, and serve the dashboard.")
    .exitOverride()
    .configureOutput({ writeOut: stdout.text, writeErr: stderr.text })
    .showHelpAfterError()
    // Not commander's .version(): that wants the version read at every start, for every command.
    .option("-V, --version", "print the Workbench's version and exit");
  let versionAsked = false;
  program.on("option:version", () => {
    versionAsked = true;
    throw new CommanderError(0, "commander.version", "version");
  });
  const { beforeAction } = hooks;
  if (beforeAction) {
    program.hook("preAction", () => {
      if (!beforeAction()) throw NOT_RUN;
    });
  }
  let code = 0;
  const setCode = (c: number) => {
    code = c;
  };
  registerIndex(program, setCode);
  registerLoadContext(program, setCode);
  registerLoader(program, setCode);
  registerReduce(program, setCode);
  registerServe(program, setCode);
  registerConverge(program, setCode);
  registerPack(program, setCode);
  registerPolicy(program, setCode);
  registerMcp(program, setCode);
  registerDb(program, setCode);
  registerAccount(program, setCode);
  registerApi(program, setCode);
  registerIndexJob(program, setCode);
  registerRunViews(program);
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (e) {
    if (e === NOT_RUN) return null;
    if (versionAsked) {
      // Read only when asked (package.json, through the module that finds the app's folder).
      const { workbenchVersion } = await import("../lib/db/app-root");
      stdout.text(`${workbenchVersion()}\n`);
      code = 0;
    } else if (e instanceof CommanderError) {
      code = e.exitCode === 0 ? 0 : 2;
    } else if (isWorkbenchError(e)) {
      stderr.line(`ERROR: ${e.message}`);
      if ((await debugging()) && e.details) console.error(e.details);
      code = 1;
    } else {
      // Not ours, so possibly several lines (a validation library's report): newlines kept.
      stderr.text(`ERROR: ${e instanceof Error ? e.message : String(e)}\n`);
      if (await debugging()) console.error(e);
      code = 1;
    }
  } finally {
    // Only commands that opened the database pay for loading its client.
    if ((globalThis as { __workbenchDb?: unknown }).__workbenchDb) {
      const { closeDb } = await import("../lib/db/client");
      await closeDb().catch(() => undefined);
    }
  }
  return code;
}
