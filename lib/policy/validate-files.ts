/**
 * `agent-collab policy validate` and `checkpoint validate` on a named file: the harness's result
 * object (schema_version 1 even for goal documents, as the reference prints it). Either version
 * of either document is validated by its own rules, the same dispatch `policy evaluate` uses.
 */
import { canonicalSha256 } from "../memory/canonical-json";
import { loadJsonObject } from "./evaluate";
import { isGoalDocument, validateGoalCheckpoint, validateGoalPolicy } from "./goal-validate";
import { validateCheckpoint, validatePolicy } from "./validate";

export interface ValidationOutput {
  schema_version: 1;
  ok: boolean;
  kind: "policy" | "checkpoint";
  path: string;
  policy_id?: string;
  policy_hash?: string;
  task_id?: string;
  errors: string[];
}

/** Python's `str(Path(p))`: repeated slashes and `.` components folded. */
export function pyPathStr(p: string): string {
  const abs = p.startsWith("/");
  const parts = p.split(/[/]+/).filter((s) => s !== "" && s !== ".");
  return (abs ? "/" : "") + parts.join("/") || (abs ? "/" : ".");
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A policy document's id once valid: the goal policy's own, the portable form's fixed one, or v1's. */
export function validatedPolicyId(document: unknown): string {
  return isGoalDocument(document) ? validateGoalPolicy(document).policy_id : validatePolicy(document).policy_id;
}

/** A checkpoint document's task id once valid (v1 or v2). */
export function validatedTaskId(document: unknown): string {
  return isGoalDocument(document) ? validateGoalCheckpoint(document).task_id : validateCheckpoint(document).task_id;
}

export function validatePolicyFile(file: string): ValidationOutput {
  try {
    const source = loadJsonObject(file);
    const policyId = validatedPolicyId(source);
    return { schema_version: 1, ok: true, kind: "policy", path: pyPathStr(file), policy_id: policyId, policy_hash: canonicalSha256(source), errors: [] };
  } catch (e) {
    return { schema_version: 1, ok: false, kind: "policy", path: pyPathStr(file), errors: [message(e)] };
  }
}

export function validateCheckpointFile(file: string): ValidationOutput {
  try {
    const taskId = validatedTaskId(loadJsonObject(file));
    return { schema_version: 1, ok: true, kind: "checkpoint", path: pyPathStr(file), task_id: taskId, errors: [] };
  } catch (e) {
    return { schema_version: 1, ok: false, kind: "checkpoint", path: pyPathStr(file), errors: [message(e)] };
  }
}
