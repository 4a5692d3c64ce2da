/**
 * A human's signed decision at a goal gate, recorded in a GoalCheckpoint v2 the way a proposal's
 * decision is recorded in its file (decide.ts): the secret is this server's (never the
 * request's) and must hash to the key the goal policy's `base_policy` pins; the file is re-read
 * under a create-only lock so two decisions at once cannot interleave; the record is appended to
 * `task.decisions`, bound to the task's pending action, and the result must still be a valid
 * GoalCheckpoint whose new record verifies.
 *
 * What the record does is the evaluator's business (GOAL-POLICY §5): per gate the latest decision
 * wins; a decline or revise stops the goal (`human_gate:<gate>:<decision>`), an approve clears an
 * older decline. It never clears `requires_human`, which only the host sets and clears.
 */
import { z } from "zod";
import { WorkbenchError } from "../core/errors";
import type { ProjectFs } from "../core/project-fs";
import { jsonObjectFromBytes } from "../policy/evaluate";
import { type ValidGoalCheckpoint, validateGoalCheckpoint } from "../policy/goal-validate";
import { pyJsonDumps } from "./canonical-json";
import { type GateDecision, signRecord, verifyRecord } from "./decision-record";
import type { gateDecisionInput } from "./schemas";
import { type HumanKeys, type KeyPinning, pinnedSecret } from "./keys";
import { acquireLock } from "./lock";
import { formatTimestamp, parseTimestamp } from "./timestamp";

/** A checkpoint file the Workbench reads: `.coord/checkpoint.json` or `.coord/checkpoints/<name>.json`. */
export { CHECKPOINT_FILE, gateDecisionInput } from "./schemas";
export type GateDecisionInput = z.output<typeof gateDecisionInput>;

function readGoalCheckpoint(pfs: ProjectFs, file: string): { document: Record<string, unknown>; state: ValidGoalCheckpoint } {
  let document: Record<string, unknown>;
  try {
    document = jsonObjectFromBytes(pfs.readBytesSync(file, { kind: "json" }), file);
  } catch (e) {
    throw new WorkbenchError("GATE_REFUSED", `${file} cannot be read as a checkpoint: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    return { document, state: validateGoalCheckpoint(document) };
  } catch (e) {
    throw new WorkbenchError("GATE_REFUSED", `${file} is not a valid GoalCheckpoint v2 (${e instanceof Error ? e.message : String(e)}); a decision is signed only into a valid one.`);
  }
}

export interface GateDecisionResult {
  file: string;
  record: GateDecision;
}

/**
 * Signs the decision and appends it to the checkpoint's `task.decisions`. Refuses: a key the
 * policy does not pin or this server cannot use (GATE_REFUSED), a checkpoint that is not a valid
 * GoalCheckpoint or names no pending action (GATE_REFUSED), a gate whose latest decision is not
 * older than now (CONFLICT: the new one would not win, or would tie), a held lock (CONFLICT).
 */
export function decideGoalGateFile(pfs: ProjectFs, input: GateDecisionInput, ctx: { keys: HumanKeys | undefined; policy: KeyPinning; now?: Date }): GateDecisionResult {
  const pinned = pinnedSecret(ctx.policy, ctx.keys, input.keyId);
  if (!pinned.ok) {
    const why = { key_not_pinned: "the goal policy does not pin this key id", no_secret: "this server has no secret for it", secret_hash_mismatch: "the secret on this server does not match the policy's pinned hash" }[
      pinned.code
    ];
    throw new WorkbenchError("GATE_REFUSED", `Cannot sign as ${input.keyId}: ${why}.`);
  }
  // Checked before the lock exists, so a refused file leaves nothing behind.
  readGoalCheckpoint(pfs, input.file);
  const lock = acquireLock(pfs, `${input.file}.lock`, { taskId: "workbench-gate", proposalId: input.file, now: ctx.now, locked: input.file });
  try {
    const { document, state } = readGoalCheckpoint(pfs, input.file);
    const task = document.task as Record<string, unknown>;
    const pending = task.pending_action_hash;
    if (typeof pending !== "string") {
      throw new WorkbenchError(
        "GATE_REFUSED",
        `${input.file} names no pending action (task.pending_action_hash is ${pending === undefined ? "absent" : "null"}): a gate decision binds to the action it decides, so there is nothing to sign.`,
      );
    }
    const now = ctx.now ?? new Date();
    const timestamp = formatTimestamp(now);
    const at = (t: string) => {
      const p = parseTimestamp(t);
      return p.ok ? p.epochMicros : null;
    };
    const mine = at(timestamp)!;
    for (const d of state.task.decisions) {
      const theirs = at(d.timestamp);
      if (d.gate === input.gate && theirs !== null && theirs >= mine) {
        throw new WorkbenchError("CONFLICT", `Gate ${input.gate} already has a decision at ${d.timestamp}, not older than now (${timestamp}): a new one would not be the latest. Try again in a moment.`);
      }
    }
    const record = signRecord(
      { gate: input.gate, actor: `human:${input.keyId}`, decision: input.decision, timestamp, rationale: input.rationale, affected_action_hash: pending },
      input.keyId,
      pinned.secret,
    ) as GateDecision;
    const next = { ...document, task: { ...task, decisions: [...state.task.decisions, record] } };
    validateGoalCheckpoint(next);
    const verified = verifyRecord(record, ctx.policy, ctx.keys, { expectedActionHash: pending, label: "gate decision" });
    if (!verified.ok) throw new WorkbenchError("INTERNAL", "The new gate decision does not verify under the policy.", verified.failures);
    // The file itself is replaced, never a link's target; numbers keep how they were written (240.0 stays 240.0).
    pfs.writablePathSync(input.file);
    pfs.writeTextAtomicSync(input.file, pyJsonDumps(next, { indent: 2, sortKeys: false }) + "\n");
    return { file: input.file, record };
  } finally {
    lock.release();
  }
}
