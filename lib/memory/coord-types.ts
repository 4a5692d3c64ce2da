/**
 * What readCoord returns for a project's `.coord/` folder. Apart from coord.ts so that pure
 * readers of a snapshot (actors.ts, run in the browser by the draft editor) need not import the reader.
 */
import type { GoalCheckpointV2, TaskCheckpointV1 } from "../policy/schemas";
import type { ValidGoalPolicy } from "../policy/goal-validate";
import type { NormalizedPolicy } from "../policy/validate";
import type { ContextPacket, SessionPrimer } from "./coord-packets";
import type { CurrentView } from "./current-view";
import type { VerifyResult } from "./decision-record";
import type { EvidenceCheck } from "./evidence";
import type { CoordIssue } from "./issues";
import type { LockStatus } from "./lock";
import type { MemoryEvent, MemoryHeader } from "./memory-file";
import type { Proposal } from "./proposal";

export interface CoordProposal {
  file: string;
  proposal: Proposal;
  actionHash: string;
  /** Per-ref resolution of the action's evidence refs. */
  evidence: EvidenceCheck[];
  /** The event this proposal became, when it was applied. */
  appliedAs: string | null;
  /** Signature check of the decision (only when keys and a policy were available). */
  verification: VerifyResult | null;
  /**
   * Other proposal files carrying the same decision signature. Non-empty means a signed
   * approval was copied between files (it verifies on any proposal with the same action), so
   * neither file is decided or applied through the Workbench until a person removes the copy.
   */
  replayedWith: string[];
}

export interface CoordMemory {
  file: string;
  header: MemoryHeader | null;
  /** Valid events (invalid ones are in errors). */
  events: MemoryEvent[];
  view: CurrentView;
}

/** `document` is the file's JSON as read (floats written `1.0` kept as PyFloat): evaluate that one. */
export type CoordCheckpoint = { file: string; version: 1; checkpoint: TaskCheckpointV1; document: unknown } | { file: string; version: 2; checkpoint: GoalCheckpointV2; document: unknown };

export interface CoordPolicy {
  file: string;
  /** v1 and portable evaluate TaskCheckpoints v1; a goal policy (v2) evaluates GoalCheckpoints v2. */
  form: "v1" | "portable" | "goal";
  /** Limits and pinned human keys in v1 form: the policy itself, or a goal policy's `base_policy`. */
  policy: NormalizedPolicy;
  /** A goal policy's own fields (goal limits, reviewer reserve), or null. */
  goal: ValidGoalPolicy | null;
  /** The id its decisions report (a goal policy's own, not its base's). */
  policyId: string;
  /** sha256 of the canonical JSON of the file's document (what decisions report as policy_hash). */
  policyHash: string;
  /** The file's JSON as read (for evaluatePolicy, which hashes the document itself). */
  document: unknown;
}

/** A lock file under .coord/ and what it says about its holder. */
export interface CoordLock {
  /** Project-relative path (`.coord/memory.yml.lock`, `.coord/memory-proposals/<id>.json.lock`, `.coord/checkpoints/<name>.json.lock`). */
  file: string;
  status: LockStatus;
}

export interface CoordSnapshot {
  root: string;
  proposals: CoordProposal[];
  memory: CoordMemory | null;
  checkpoints: CoordCheckpoint[];
  policies: CoordPolicy[];
  packets: ContextPacket[];
  primer: SessionPrimer | null;
  lock: LockStatus | null;
  /**
   * Decision locks: of proposal files (`<id>.json.lock`) and of checkpoints (`<file>.json.lock`, a
   * gate decision): a decision being recorded now, or cut off by a crash.
   */
  proposalLocks: CoordLock[];
  errors: CoordIssue[];
}
