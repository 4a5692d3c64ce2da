/**
 * Goal documents (schema_version 2): GoalCheckpoint v2 and goal policies. FORMATS §4 documents
 * the GoalCheckpoint fields and the GoalDecision *output* (scope goal|slice|action,
 * auto_continue, goal totals) but not the algorithm that produces a GoalDecision, and the
 * reference fixtures hold only its JSON schema. Rather than invent one, the Workbench says
 * plainly that goal documents are not evaluated: the CLI stays a fail-closed stop, and the task
 * page evaluates only the TaskCheckpoint v1 embedded in a GoalCheckpoint, labelled as such.
 */
import { PyFloat } from "../memory/canonical-json";

export const GOAL_CHECKPOINT_NOT_EVALUATED =
  "GoalCheckpoint v2 is not evaluated: FORMATS documents the GoalDecision output (scope, auto_continue, goal totals) but not how it is decided, so goal and slice limits are not checked here.";

export const GOAL_POLICY_NOT_EVALUATED = "goal policy (v2) not evaluated: only policy v1 and portable v1 are evaluated here; FORMATS does not document how a goal policy is applied.";

/** What the task page shows for a GoalCheckpoint: only its embedded task was evaluated. */
export const EMBEDDED_TASK_EVALUATED = "Only its embedded TaskCheckpoint v1 (the `task` field) is evaluated below, as a PolicyDecision v1; that is not the goal's decision.";

/** True for a JSON object whose schema_version is 2 (an integral float read as `2.0` included). */
export function isGoalDocument(doc: unknown): boolean {
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) return false;
  const v = (doc as { schema_version?: unknown }).schema_version;
  return v === 2 || (v instanceof PyFloat && v.value === 2);
}

/** Notes for `workbench policy evaluate|validate` when an input is a goal document (read failures are not notes). */
export function goalInputNotes(policy: unknown, checkpoint: unknown, command: "evaluate" | "validate"): string[] {
  const notes: string[] = [];
  const outcome = command === "evaluate" ? "The result below is a fail-closed stop, not a GoalDecision." : "It is reported invalid because this command validates TaskCheckpoint v1 only.";
  if (isGoalDocument(checkpoint)) notes.push(`${GOAL_CHECKPOINT_NOT_EVALUATED} ${outcome}`);
  if (isGoalDocument(policy)) notes.push(`${GOAL_POLICY_NOT_EVALUATED}${command === "evaluate" ? " The result below is a fail-closed stop." : ""}`);
  return notes;
}
