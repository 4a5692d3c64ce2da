/**
 * A decision exactly as `agent-collab policy evaluate --json` prints it: Python's
 * `json.dumps(indent=2, sort_keys=True, ensure_ascii=False)` plus a newline. The CLI, the API and
 * the MCP tool all hand out these bytes, so they cannot disagree.
 */
import { pyJsonDumps } from "../memory/canonical-json";
import type { AnyDecision } from "./evaluate";

export function decisionJson(d: AnyDecision): string {
  return pyJsonDumps(d, { indent: 2, sortKeys: true }) + "\n";
}
