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
import { sampleProjectDir } from "../db/database-url";
import { isTeamMode } from "../auth/config";
import { ProjectFs } from "../core/project-fs";
import { type AnyDecision, type GoalScope, type PolicyDecision, evaluateExitCode, evaluatePolicy, failClosedDecision, fallbackPolicyId, jsonObjectFromBytes } from "../policy/evaluate";
import { decisionJson } from "../policy/decision-json";
import type { ValidGoalCheckpoint } from "../policy/goal-validate";
import { type GoalView, goalView } from "../policy/goal-view";
import { type MetricRow, metricRows } from "../policy/metric-rows";
import { reasonInWords } from "../policy/reason-words";
import { applyProposal, type ApplyResult } from "./apply";
import { PyFloat } from "./canonical-json";
import { checkDraft, draftPrimer, draftTaskBrief, nextPacketFile, recordedActors, type DraftCheck } from "./bounded-brief";
import { readCoord, type CoordPolicy, type CoordSnapshot } from "./coord";
import { decideProposalFile } from "./decide";
import { type GateDecisionResult, decideGoalGateFile } from "./goal-gate";
import { availableSigners, loadHumanKeys, type HumanKeys, type Signer } from "./keys";
import { LOCK_FILE, type LockStatus, breakStaleLock } from "./lock";
import { PRIMER_FILE } from "./coord-packets";
import { createPacketFile } from "./packet-file";
import { withSampleKey } from "./sample-key";
import { type Proposal, proposalRelPath } from "./proposal";
import { breakLockInput, decisionInput, draftQuery, gateDecisionInput, saveDraftInput } from "./schemas";

export { breakLockInput, decisionInput, draftQuery, saveDraftInput };

/** The server's approver keys; a key file inside the project is refused (agents could read it). */
function keysOrNone(projectRoot: string): { keys: HumanKeys | undefined; keyError: string | null } {
  try {
    const keys = loadHumanKeys({ projectRoots: [projectRoot] });
    return { keys: withSampleKey(keys, { projectRoot, sampleRoot: sampleProjectDir(), team: isTeamMode() }), keyError: null };
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
  /** The policy file it was evaluated against (null: there is none). */
  policyFile: string | null;
  /** The decision as plain JSON (PolicyDecision v1, GoalDecision v2, or the fail-closed envelope). */
  decision: unknown;
  /** Exactly what `workbench policy evaluate --json` prints for these two files. */
  decisionJson: string;
  /** `policy evaluate`'s exit code: 0 continue, 3 checkpoint, 4 stop. */
  exitCode: 0 | 3 | 4;
  /** The decision's fields the page shows, as plain values (scope and auto_continue: GoalDecision only). */
  outcome: Pick<PolicyDecision, "decision" | "spawn_allowed" | "checkpoint_required" | "reasons" | "policy_id" | "policy_hash"> & { scope: GoalScope | null; auto_continue: boolean | null };
  /** Each reason with its meaning in words. */
  reasons: { reason: string; words: string }[];
  /** TaskCheckpoint v1: each hard metric, child count and the transcript growth against its effective limit. */
  metrics: MetricRow[];
  /** GoalCheckpoint v2: goal totals, slice boundaries, compaction, review reserve, human gates. */
  goal: GoalView | null;
}

/**
 * The policy a checkpoint is evaluated against: a valid one of its own kind (a goal policy for a
 * GoalCheckpoint v2, v1 or portable for a TaskCheckpoint v1), `.coord/policy.json` first; else
 * `.coord/policy.json` whatever it holds, or any policy, so the outcome is the fail-closed stop
 * `policy evaluate` gives for that pair (an invalid policy, or versions that do not match).
 */
const MAIN_POLICY = ".coord/policy.json";
const fitsVersion = (p: CoordPolicy, version: 1 | 2) => (p.form === "goal") === (version === 2);

function policyFor(snapshot: CoordSnapshot, version: 1 | 2): CoordPolicy | null {
  const fits = snapshot.policies.filter((p) => fitsVersion(p, version));
  return fits.find((p) => p.file === MAIN_POLICY) ?? fits[0] ?? snapshot.policies.find((p) => p.file === MAIN_POLICY) ?? snapshot.policies[0] ?? null;
}

/** The policy file's document as `policy evaluate` reads it (strict UTF-8, universal newlines), or why it cannot be. */
function policyDocument(pfs: ProjectFs, file: string): { document: unknown; error: string | null } {
  try {
    return { document: jsonObjectFromBytes(pfs.readBytesSync(file, { kind: "json" }), file), error: null };
  } catch (e) {
    return { document: undefined, error: e instanceof Error ? e.message : String(e) };
  }
}

/** An invalid .coord/policy.json is not in the snapshot, yet `policy evaluate` would read it: so does the page. */
async function mainPolicyInvalid(snapshot: CoordSnapshot, pfs: ProjectFs): Promise<boolean> {
  return !snapshot.policies.some((p) => p.file === MAIN_POLICY) && (await pfs.isFile(MAIN_POLICY));
}

/** The policy a checkpoint of `version` is evaluated against, and its file. */
function checkpointPolicy(snapshot: CoordSnapshot, mainInvalid: boolean, version: 1 | 2): { policy: CoordPolicy | null; policyFile: string | null } {
  // No valid policy of the checkpoint's kind, and an invalid .coord/policy.json: its own fault is the answer.
  const policy = mainInvalid && !snapshot.policies.some((p) => fitsVersion(p, version)) ? null : policyFor(snapshot, version);
  return { policy, policyFile: policy?.file ?? (mainInvalid ? MAIN_POLICY : null) };
}

/** The policy file of the project a checkpoint of `version` is evaluated against, as the task page picks it; null when there is none. */
export async function projectPolicyFile(projectId: string, version: 1 | 2): Promise<string | null> {
  const project = await getProject(projectId);
  const snapshot = await readCoord(project.rootPath);
  return checkpointPolicy(snapshot, await mainPolicyInvalid(snapshot, await ProjectFs.open(project.rootPath)), version).policyFile;
}

const plainJson = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (_k, x: unknown) => (x instanceof PyFloat ? x.value : x)));

/** Each checkpoint evaluated as `workbench policy evaluate --policy <its policy> --checkpoint <it>` would. */
export async function taskEvaluations(projectId: string): Promise<TaskEvaluation[]> {
  const project = await getProject(projectId);
  const { keys } = keysOrNone(project.rootPath);
  const snapshot = await readCoord(project.rootPath, { keys });
  const pfs = await ProjectFs.open(project.rootPath);
  const mainInvalid = await mainPolicyInvalid(snapshot, pfs);
  return snapshot.checkpoints.map((c) => {
    const { policy, policyFile } = checkpointPolicy(snapshot, mainInvalid, c.version);
    const read = policyFile ? policyDocument(pfs, policyFile) : { document: undefined, error: "no policy file in .coord/" };
    const decision: AnyDecision = read.error
      ? failClosedDecision(fallbackPolicyId(policyFile ?? "policy.json"), read.error)
      : evaluatePolicy(read.document, c.document, { keys, policyFileName: policyFile ?? "policy.json" });
    const goalDecision = decision.schema_version === 2 ? decision : null;
    const view = c.version === 2 ? goalView(c.document as ValidGoalCheckpoint, policy?.goal ?? null, decision) : null;
    const { decision: d, spawn_allowed, checkpoint_required, reasons, policy_id, policy_hash } = decision;
    const words = { totals: goalDecision ? (goalDecision.observed_metrics as Record<string, unknown>) : undefined, goalLimits: policy?.goal?.goal_limits, limits: decision.effective_limits };
    return {
      file: c.file,
      taskId: c.checkpoint.task_id,
      version: c.version,
      policyFile,
      decision: plainJson(decision),
      decisionJson: decisionJson(decision),
      exitCode: evaluateExitCode(decision),
      outcome: { decision: d, spawn_allowed, checkpoint_required, reasons, policy_id, policy_hash, scope: goalDecision?.scope ?? null, auto_continue: goalDecision?.auto_continue ?? null },
      reasons: reasons.map((r) => ({ reason: r, words: reasonInWords(r, words) })),
      metrics: c.version === 1 ? metricRows(decision) : [],
      goal: view,
    };
  });
}

/** The GoalCheckpoint v2 file of a project and the goal policy whose pinned keys sign its gates. */
async function goalGateTarget(projectId: string, file: string, taskId: string) {
  const project = await getProject(projectId);
  const { keys, keyError } = keysOrNone(project.rootPath);
  if (keyError) throw new WorkbenchError("GATE_REFUSED", keyError);
  const snapshot = await readCoord(project.rootPath, { keys });
  const checkpoint = snapshot.checkpoints.find((c) => c.file === file);
  if (!checkpoint || checkpoint.checkpoint.task_id !== taskId) throw new WorkbenchError("NOT_FOUND", `No valid checkpoint ${file} for task ${taskId} in .coord/.`);
  if (checkpoint.version !== 2) throw new WorkbenchError("GATE_REFUSED", `${file} is a TaskCheckpoint v1; gate decisions are signed here for GoalCheckpoints v2.`);
  const policy = policyFor(snapshot, 2);
  if (!policy || policy.form !== "goal") throw new WorkbenchError("GATE_REFUSED", "The project has no valid goal policy (v2) in .coord/ pinning approvers' keys: nothing can be signed for a goal gate.");
  return { project, keys, policy };
}

/** Who may sign a goal gate's decision here, under the goal policy the checkpoint is evaluated with. */
export async function goalGateSigners(projectId: string): Promise<{ signers: Signer[]; keyProblem: string | null; policyFile: string | null }> {
  const project = await getProject(projectId);
  const { keys, keyError } = keysOrNone(project.rootPath);
  const snapshot = await readCoord(project.rootPath, { keys });
  const policy = policyFor(snapshot, 2);
  if (keyError) return { signers: [], keyProblem: keyError, policyFile: policy?.file ?? null };
  if (!policy || policy.form !== "goal") return { signers: [], keyProblem: "The project has no valid goal policy (v2) pinning approvers' keys: nothing can be signed.", policyFile: null };
  const signers = keys ? availableSigners(policy.policy, keys) : [];
  const keyProblem =
    !keys || signers.length === 0
      ? "This server has no approver key (set AGENT_COLLAB_HUMAN_KEYS_JSON or WORKBENCH_HUMAN_KEYS_FILE)."
      : signers.some((s) => s.pinned)
        ? null
        : `No key on this server matches a hash pinned in ${policy.file} (base_policy.human_authorization).`;
  return { signers, keyProblem, policyFile: policy.file };
}

/** A signed human decision at a goal gate, added to the checkpoint's task (the proposal flow's rules: server-held key, lock, atomic write). */
export async function decideGoalGate(projectId: string, taskId: string, raw: z.input<typeof gateDecisionInput>): Promise<GateDecisionResult> {
  const input = gateDecisionInput.parse(raw);
  const { project, keys, policy } = await goalGateTarget(projectId, input.file, taskId);
  const pfs = await ProjectFs.open(project.rootPath);
  return decideGoalGateFile(pfs, input, { keys, policy: policy.policy });
}

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
  if (!check.ready)
    throw new WorkbenchError("GATE_REFUSED", `Not written: ${check.issues.filter((i) => i.severity !== "warning").length} problem(s) stand, e.g. ${check.issues.find((i) => i.severity !== "warning")?.message ?? ""}`, {
      issues: check.issues,
    });
  const pfs = await ProjectFs.open(project.rootPath);
  const text = input.markdown.endsWith("\n") ? input.markdown : `${input.markdown}\n`;
  // Both land in `.coord` as a real folder inside the project; a `.coord` (or a primer) that is a link is refused.
  if (input.kind === "primer") {
    pfs.writeTextAtomicSync(PRIMER_FILE, text);
    return { file: PRIMER_FILE, check };
  }
  return { file: `.coord/${createPacketFile(pfs, text)}`, check };
}

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
