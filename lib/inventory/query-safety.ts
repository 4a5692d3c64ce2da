import { WorkbenchError } from "../core/errors";

/** The seed's query checks: blank is an error; `/` or `..` skips path lookups but stays a search term. */
export function checkQuery(raw: string): { query: string; pathSafe: boolean } {
  if (raw.replace(/\s/g, "") === "") throw new WorkbenchError("INVALID_INPUT", "The query is blank.");
  // As `$(cat file)` reads it: every trailing newline goes.
  const query = raw.replace(/[\r\n]+$/, "");
  return { query, pathSafe: !(query.includes("/") || query.includes("..")) };
}
