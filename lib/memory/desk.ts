/**
 * The review desk for a project's memory proposals: what the pages and routes call. Keys
 * are loaded on the server for each request (AGENT_COLLAB_HUMAN_KEYS_JSON or a key file
 * outside the repository) and never leave it: the browser only learns which key ids can
 * sign under the project's policy.
 */
import { z } from "zod";
import { syncMemorySearch } from "../search/sync";
import { WorkbenchError } from "../core/errors";
import { getProject } from "../db/repositories/projects";
import { ProjectFs } from "../core/project-fs";
import { evaluatePolicy, failClosedDecision, fallbackPolicyId, jsonObjectFromBytes, type PolicyDecision } from "../policy/evaluate";
import { EMBEDDED_TASK_EVALUATED, GOAL_CHECKPOINT_NOT_EVALUATED, GOAL_POLICY_NOT_EVALUATED } from "../policy/goal-v2";
import { type MetricRow, metricRows } from "../policy/metric-rows";
import { applyProposal, type ApplyResult } from "./apply";
import { PyFloat } from "./canonical-json";
import { checkDraft, draftPrimer, draftTaskBrief, nextPacketFile, recordedActors, type DraftCheck } from "./bounded-brief";
import { readCoord, type CoordPolicy, type CoordSnapshot } from "./coord";
import { decideProposalFile } from "./decide";
import { availableSigners, loadHumanKeys, type HumanKeys, type Signer } from "./keys";
import { LOCK_FILE, type LockStatus, breakStaleLock } from "./lock";
import { PRIMER_FILE } from "./coord-packets";
import { createPacketFile } from "./packet-file";
import { PROPOSALS_DIR, type Proposal, proposalRelPath } from "./proposal";

/** The server's approver keys; a key file inside the project is refused (agents could read it). */
function keysOrNone(projectRoot: string): { keys: HumanKeys | undefined; keyError: string | null } {
  try {
    return { keys: loadHumanKeys({ projectRoots: [projectRoot] }), keyError: null };
  } catch (e) {
    return { keys: undefined, keyError: e instanceof Error ? e.message : String(e) };
  }
}

/** The policy whose pinned key hashes decide who may sign: `.coord/policy.json` first. */
function signingPolicy(snapshot: CoordSnapshot): CoordPolicy | null {
  return snapshot.policies.find((p) => p.file === ".coord/policy.json") ?? snapshot.policies[0] ?? null;
}

/** A proposal whose decision signature is also on another file is neither decided nor applied (see readCoord). */
function refuseReplayed(snapshot: CoordSnapshot, proposalId: string): void {
  const p = snapshot.proposals.find((x) => x.file === proposalRelPath(proposalId));
  if (p && p.replayedWith.length > 0) {
    throw new WorkbenchError("CONFLICT", `${p.file} carries the same signed decision as ${p.replayedWith.join(", ")}: a replayed approval is neither decided nor applied. Remove the copied file, then try again.`);
  }
}

export interface DeskView {
  snapshot: CoordSnapshot;
  signers: Signer[];
  /** Why no key can sign here, when none can (no keys loaded, a bad key file…). */
  keyProblem: string | null;
  policyFile: string | null;
}

export async function memoryDesk(projectId: string): Promise<DeskView> {
  const project = await getProject(projectId);
  const { keys, keyError } = keysOrNone(project.rootPath);
  const snapshot = await readCoord(project.rootPath, { keys });
  const policy = signingPolicy(snapshot);
  const signers = policy && keys ? availableSigners(policy.policy, keys) : [];
  const keyProblem =
    keyError ??
    (!policy
      ? "The project has no .coord/policy.json pinning approvers' keys: nothing can be signed."
      : !keys || signers.length === 0
        ? "This server has no approver key (set AGENT_COLLAB_HUMAN_KEYS_JSON or WORKBENCH_HUMAN_KEYS_FILE)."
        : signers.some((s) => s.pinned)
          ? null
          : "No key on this server matches a hash pinned in the policy.");
  return { snapshot, signers, keyProblem, policyFile: policy?.file ?? null };
}

export const decisionInput = z.object({
  decision: z.enum(["approve", "decline", "revise"]).describe("the human decision; only approve lets the proposal be applied"),
  rationale: z.string().trim().min(1, "a rationale is required").max(4000).describe("why, recorded in the signed record"),
  keyId: z.string().min(1).max(200).describe("which pinned key signs (the secret stays on the server)"),
});

export async function decideProposal(projectId: string, proposalId: string, raw: z.input<typeof decisionInput>): Promise<Proposal> {
  const input = decisionInput.parse(raw);
  const project = await getProject(projectId);
  const { keys, keyError } = keysOrNone(project.rootPath);
  if (keyError) throw new WorkbenchError("GATE_REFUSED", keyError);
  const snapshot = await readCoord(project.rootPath, { keys });
  const policy = signingPolicy(snapshot);
  if (!policy) throw new WorkbenchError("GATE_REFUSED", "The project has no .coord/policy.json pinning approvers' keys.");
  refuseReplayed(snapshot, proposalId);
  return decideProposalFile(project.rootPath, proposalId, { decision: input.decision, rationale: input.rationale, keyId: input.keyId, taskId: "workbench-review" }, { keys, policy: policy.policy });
}

export async function applyApprovedProposal(projectId: string, proposalId: string): Promise<ApplyResult> {
  const project = await getProject(projectId);
  const { keys, keyError } = keysOrNone(project.rootPath);
  if (keyError) throw new WorkbenchError("GATE_REFUSED", keyError);
  const snapshot = await readCoord(project.rootPath, { keys });
  const policy = signingPolicy(snapshot);
  if (!policy) throw new WorkbenchError("GATE_REFUSED", "The project has no .coord/policy.json pinning approvers' keys.");
  refuseReplayed(snapshot, proposalId);
  const result = await applyProposal(project.rootPath, proposalId, { keys, policy: policy.policy, taskId: "workbench-apply" });
  // The new event (and what it supersedes) is searchable at once; a failure there never undoes the apply.
  await syncMemorySearch(projectId).catch((e: unknown) => console.error("[workbench] search index of memory", projectId, e));
  return result;
}

export interface TaskEvaluation {
  file: string;
  taskId: string;
  /** The file's schema: TaskCheckpoint v1 or GoalCheckpoint v2. */
  version: 1 | 2;
  /**
   * What the decision covers: the file's TaskCheckpoint v1, or only the TaskCheckpoint v1
   * embedded in a GoalCheckpoint v2 (the goal itself is not evaluated: lib/policy/goal-v2.ts).
   */
  evaluated: "task_checkpoint" | "embedded_task";
  /** For a GoalCheckpoint v2: its goal and slice, and plain words on what was and was not evaluated. */
  goal: { goalId: string; sliceId: number; notEvaluated: string; evaluatedInstead: string } | null;
  policyFile: string | null;
  /** The PolicyDecision, as `workbench policy evaluate --json` prints it. */
  decision: unknown;
  /** The decision's fields the page shows, as plain values. */
  outcome: Pick<PolicyDecision, "decision" | "spawn_allowed" | "checkpoint_required" | "reasons" | "policy_id" | "policy_hash">;
  /** Each hard metric, child count and the transcript growth against its effective limit. */
  metrics: MetricRow[];
}

/** The policy checkpoints are evaluated against, or why there is none to evaluate with. */
function evaluationPolicy(snapshot: CoordSnapshot, pfs: ProjectFs): { policy: CoordPolicy | null; document: unknown; error: string | null } {
  // A goal policy in the main place is not replaced by another file: nothing is evaluated (fail closed).
  const goal = snapshot.goalPolicies.find((g) => g.file === ".coord/policy.json") ?? (snapshot.policies.length === 0 ? snapshot.goalPolicies[0] : undefined);
  if (goal) return { policy: null, document: undefined, error: `${goal.file}: ${GOAL_POLICY_NOT_EVALUATED}` };
  const policy = signingPolicy(snapshot);
  if (!policy) return { policy: null, document: undefined, error: "no policy file in .coord/" };
  try {
    // The file's bytes as `policy evaluate` reads them (strict UTF-8, universal newlines), through the project's file layer.
    return { policy, document: jsonObjectFromBytes(pfs.readBytesSync(policy.file, { kind: "json" }), policy.file), error: null };
  } catch (e) {
    return { policy, document: undefined, error: e instanceof Error ? e.message : String(e) };
  }
}

/** Each checkpoint evaluated against the signing policy, as `policy evaluate` would (a GoalCheckpoint: only its embedded task). */
export async function taskEvaluations(projectId: string): Promise<TaskEvaluation[]> {
  const project = await getProject(projectId);
  const { keys } = keysOrNone(project.rootPath);
  const snapshot = await readCoord(project.rootPath, { keys });
  const pfs = await ProjectFs.open(project.rootPath);
  const { policy, document: policyDoc, error: policyError } = evaluationPolicy(snapshot, pfs);
  return snapshot.checkpoints.map((c) => {
    // The document as read (floats written `1.0` kept); a GoalCheckpoint's `task` is a TaskCheckpoint v1.
    const task = c.version === 1 ? c.document : (c.document as { task: unknown }).task;
    const decision = policyError
      ? failClosedDecision(fallbackPolicyId(policy?.file ?? "policy.json"), policyError)
      : evaluatePolicy(policyDoc, task, { keys, policyFileName: policy?.file ?? "policy.json" });
    const { decision: d, spawn_allowed, checkpoint_required, reasons, policy_id, policy_hash } = decision;
    return {
      file: c.file,
      taskId: c.checkpoint.task_id,
      version: c.version,
      evaluated: c.version === 1 ? "task_checkpoint" : "embedded_task",
      goal: c.version === 2 ? { goalId: c.checkpoint.goal_id, sliceId: c.checkpoint.slice_id, notEvaluated: GOAL_CHECKPOINT_NOT_EVALUATED, evaluatedInstead: EMBEDDED_TASK_EVALUATED } : null,
      policyFile: policy?.file ?? null,
      decision: JSON.parse(JSON.stringify(decision, (_k, v: unknown) => (v instanceof PyFloat ? v.value : v))) as unknown,
      outcome: { decision: d, spawn_allowed, checkpoint_required, reasons, policy_id, policy_hash },
      metrics: metricRows(decision),
    };
  });
}

export const draftQuery = z.object({
  kind: z.enum(["brief", "primer"]).describe("brief: a bounded task packet (.coord/context_NNN.md); primer: .coord/session_primer.md"),
  task: z.string().max(200).optional().describe("task id the packet is for (brief only)"),
});

export const saveDraftInput = z.object({
  kind: z.enum(["brief", "primer"]).describe("what the text is"),
  markdown: z.string().min(1).max(200_000).describe("the text to write"),
});

/** A draft filled from .coord/, the policy's token cap for it, and its checks. */
export async function coordDraft(projectId: string, raw: z.input<typeof draftQuery>): Promise<{ markdown: string; budget: number | null; actors: string[]; check: DraftCheck; target: string }> {
  const q = draftQuery.parse(raw);
  const project = await getProject(projectId);
  const snapshot = await readCoord(project.rootPath);
  if (q.kind === "brief" && q.task && !snapshot.checkpoints.some((c) => c.checkpoint.task_id === q.task)) throw new WorkbenchError("NOT_FOUND", `No checkpoint for task ${q.task} in .coord/.`);
  const markdown = q.kind === "brief" ? draftTaskBrief(snapshot, q.task ?? "<task id>") : draftPrimer(snapshot);
  const budget = draftBudget(snapshot, q.kind);
  const target = q.kind === "brief" ? nextPacketFile(snapshot.packets.map((p) => p.file)) : ".coord/session_primer.md";
  const actors = recordedActors(snapshot);
  return { markdown, budget, actors, check: checkDraft(q.kind, markdown, budget, { actors }), target };
}

function draftBudget(snapshot: CoordSnapshot, kind: "brief" | "primer"): number | null {
  const policy = signingPolicy(snapshot);
  if (!policy) return null;
  const limits = policy.policy.limits as Record<string, number>;
  return (kind === "brief" ? limits.max_task_packet_tokens : limits.max_parent_summary_tokens) ?? null;
}

/**
 * Writes a packet or primer into .coord/ once its checks pass. A packet is created under the
 * next free context_NNN.md and never replaces one (two saves at once get two numbers); the
 * primer is one file, replaced atomically.
 */
export async function saveCoordDraft(projectId: string, raw: z.input<typeof saveDraftInput>): Promise<{ file: string; check: DraftCheck }> {
  const input = saveDraftInput.parse(raw);
  const project = await getProject(projectId);
  const snapshot = await readCoord(project.rootPath);
  const check = checkDraft(input.kind, input.markdown, draftBudget(snapshot, input.kind), { actors: recordedActors(snapshot) });
  if (!check.ready) throw new WorkbenchError("GATE_REFUSED", `Not written: ${check.issues.filter((i) => i.severity !== "warning").length} problem(s) stand, e.g. ${check.issues.find((i) => i.severity !== "warning")?.message ?? ""}`, { issues: check.issues });
  const pfs = await ProjectFs.open(project.rootPath);
  const text = input.markdown.endsWith("\n") ? input.markdown : `${input.markdown}\n`;
  // Both land in `.coord` as a real folder inside the project; a `.coord` (or a primer) that is a link is refused.
  if (input.kind === "primer") {
    pfs.writeTextAtomicSync(PRIMER_FILE, text);
    return { file: PRIMER_FILE, check };
  }
  return { file: `.coord/${createPacketFile(pfs, text)}`, check };
}

const PROPOSAL_LOCK = /^\.coord\/memory-proposals\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json\.lock$/;

export const breakLockInput = z.object({
  file: z
    .string()
    .max(200)
    .refine((f) => f === LOCK_FILE || PROPOSAL_LOCK.test(f), `must be ${LOCK_FILE} or ${PROPOSALS_DIR}/<proposal_id>.json.lock`)
    .describe("the lock file to remove: the memory lock or one proposal's decision lock"),
});

/**
 * Removes a lock left by a crash, on an approver's explicit request: only when this host confirms
 * its owner process is gone (breakStaleLock); a lock held by a live or unknown owner stays.
 */
export async function breakCoordLock(projectId: string, raw: z.input<typeof breakLockInput>): Promise<{ file: string; removed: LockStatus }> {
  const { file } = breakLockInput.parse(raw);
  const project = await getProject(projectId);
  const pfs = await ProjectFs.open(project.rootPath);
  if (!(await pfs.isFile(file))) throw new WorkbenchError("NOT_FOUND", `There is no ${file}.`);
  const label = file === LOCK_FILE ? "memory lock" : `decision lock ${file}`;
  return { file, removed: breakStaleLock(pfs, file, label) };
}
