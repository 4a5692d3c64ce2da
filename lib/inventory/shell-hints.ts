/**
 * The shell's counterparts of the slash commands the seed's "not found" outputs suggest
 * (`/load-context <query>`, `/create-requirements`, `/brainstorm`), for `workbench
 * load-context`. The seed's text stays as it is on stdout, where agents parse it; these lines
 * go beside it (the CLI writes them on stderr), for the person who typed the command.
 */
import { broaderQuery } from "./format";
import type { LoadContextResult } from "./load-context";

/** One shell word: as it is when nothing in it is special to a POSIX shell, else single-quoted. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:=@+,%^-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** `workbench load-context` with the arguments given, and `--project <path>` when the project was named. */
function command(project: string | null, ...args: string[]): string {
  return ["workbench load-context", ...args, ...(project === null ? [] : ["--project", shellWord(project)])].join(" ");
}

function table(rows: [string, string][]): string {
  const w = Math.max(...rows.map(([c]) => [...c].length)) + 2;
  return rows.map(([c, what]) => `  ${c}${" ".repeat(w - [...c].length)}${what}`).join("\n");
}

/**
 * For the seed's "No argument, no local context found" output. `/create-requirements` and
 * `/brainstorm` are the agent's own skills (the nexus plugin's, in Claude Code): a shell starts
 * them through the agent's CLI, and the Workbench indexes what they write on its next run.
 * `project` is the folder named with --project, null when the current folder was used.
 */
export function emptyInventoryHints(project: string | null): string {
  return [
    "In a shell:",
    table([
      [command(project, "'<query>'"), "search by keyword (/load-context <query>)"],
      ['claude "/create-requirements"', "start new work: the agent's skill, run through its CLI"],
      ['claude "/brainstorm"', "start brainstorming: the agent's skill, run through its CLI"],
      [command(project), "list what they wrote (read again on every run)"],
    ]),
    "",
  ].join("\n");
}

/** For the seed's "Slug not found anywhere" output. */
export function notFoundHints(query: string, project: string | null): string {
  const broader = broaderQuery(query);
  return [
    "In a shell:",
    table([
      [command(project, shellWord(broader)), `a broader query (/load-context ${broader})`],
      [command(project), "list available context (/load-context)"],
    ]),
    "",
  ].join("\n");
}

/**
 * The hints for one answer of `workbench load-context` (the inventory, with how many topics it
 * listed, or a query, with what load-context found); null when the answer found something.
 */
export function shellHints(answer: { query: undefined; topics: number } | { query: string; mode: LoadContextResult["mode"] }, project: string | null): string | null {
  if (answer.query === undefined) return answer.topics === 0 ? emptyInventoryHints(project) : null;
  return answer.mode === "none" ? notFoundHints(answer.query, project) : null;
}
