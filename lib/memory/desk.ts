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
import { HARD_METRICS, evaluatePolicy, failClosedDecision, fallbackPolicyId, loadJsonObject, type PolicyDecision } from "../policy/evaluate";
import { applyProposal, type ApplyResult } from "./apply";
import { PyFloat } from "./canonical-json";
import { writeTextAtomic } from "../deep-context/write";
import { checkDraft, draftPrimer, draftTaskBrief, nextPacketFile, type DraftCheck } from "./bounded-brief";
import { readCoord, type CoordPolicy, type CoordSnapshot } from "./coord";
import { decideProposalFile } from "./decide";
import { availableSigners, loadHumanKeys, type HumanKeys, type Signer } from "./keys";
import type { Proposal } from "./proposal";

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
  return decideProposalFile(project.rootPath, proposalId, { decision: input.decision, rationale: input.rationale, keyId: input.keyId, taskId: "workbench-review" }, { keys, policy: policy.policy });
}

export async function applyApprovedProposal(projectId: string, proposalId: string): Promise<ApplyResult> {
  const project = await getProject(projectId);
  const { keys, keyError } = keysOrNone(project.rootPath);
  if (keyError) throw new WorkbenchError("GATE_REFUSED", keyError);
  const snapshot = await readCoord(project.rootPath, { keys });
  const policy = signingPolicy(snapshot);
  if (!policy) throw new WorkbenchError("GATE_REFUSED", "The project has no .coord/policy.json pinning approvers' keys.");
  const result = await applyProposal(project.rootPath, proposalId, { keys, policy: policy.policy, taskId: "workbench-apply" });
  // The new event (and what it supersedes) is searchable at once; a failure there never undoes the apply.
  await syncMemorySearch(projectId).catch((e: unknown) => console.error("[workbench] search index of memory", projectId, e));
  return result;
}

export interface TaskEvaluation {
  file: string;
  taskId: string;
  version: 1 | 2;
  policyFile: string | null;
  /** The PolicyDecision, as `workbench policy evaluate --json` prints it. */
  decision: unknown;
  /** The decision's fields the page shows, as plain values. */
  outcome: Pick<PolicyDecision, "decision" | "spawn_allowed" | "checkpoint_required" | "reasons" | "policy_id" | "policy_hash">;
  /** Each hard metric against its effective limit. */
  metrics: { metric: string; limit: string; observed: number | null; max: number | null; reached: boolean }[];
}

const plain = (v: unknown): number | null => (typeof v === "number" ? v : v instanceof PyFloat ? v.value : null);

/** Each checkpoint evaluated against the signing policy, as `policy evaluate` would. */
export async function taskEvaluations(projectId: string): Promise<TaskEvaluation[]> {
  const project = await getProject(projectId);
  const { keys } = keysOrNone(project.rootPath);
  const snapshot = await readCoord(project.rootPath, { keys });
  const policy = signingPolicy(snapshot);
  const pfs = await ProjectFs.open(project.rootPath);
  let policyDoc: unknown;
  let policyError: string | null = policy ? null : "no policy file in .coord/";
  if (policy) {
    try {
      policyDoc = loadJsonObject(pfs.resolve(policy.file));
    } catch (e) {
      policyError = e instanceof Error ? e.message : String(e);
    }
  }
  return snapshot.checkpoints.map((c) => {
    // A GoalCheckpoint (v2) carries its task's TaskCheckpoint (v1), which the policy bounds.
    const task = c.version === 1 ? c.checkpoint : c.checkpoint.task;
    const decision = policyError
      ? failClosedDecision(fallbackPolicyId(policy?.file ?? "policy.json"), policyError)
      : evaluatePolicy(policyDoc, task, { keys, policyFileName: policy?.file ?? "policy.json" });
    const metrics = HARD_METRICS.map(([metric, limit]) => {
      const observed = plain((decision.observed_metrics as Record<string, unknown>)[metric]);
      const max = plain(decision.effective_limits[limit]);
      return { metric, limit, observed, max, reached: observed !== null && max !== null && observed >= max };
    });
    const { decision: d, spawn_allowed, checkpoint_required, reasons, policy_id, policy_hash } = decision;
    return {
      file: c.file,
      taskId: c.checkpoint.task_id,
      version: c.version,
      policyFile: policy?.file ?? null,
      decision: JSON.parse(JSON.stringify(decision, (_k, v: unknown) => (v instanceof PyFloat ? v.value : v))) as unknown,
      outcome: { decision: d, spawn_allowed, checkpoint_required, reasons, policy_id, policy_hash },
      metrics,
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
export async function coordDraft(projectId: string, raw: z.input<typeof draftQuery>): Promise<{ markdown: string; budget: number | null; check: DraftCheck; target: string }> {
  const q = draftQuery.parse(raw);
  const project = await getProject(projectId);
  const snapshot = await readCoord(project.rootPath);
  if (q.kind === "brief" && q.task && !snapshot.checkpoints.some((c) => c.checkpoint.task_id === q.task)) throw new WorkbenchError("NOT_FOUND", `No checkpoint for task ${q.task} in .coord/.`);
  const markdown = q.kind === "brief" ? draftTaskBrief(snapshot, q.task ?? "<task id>") : draftPrimer(snapshot);
  const budget = draftBudget(snapshot, q.kind);
  const target = q.kind === "brief" ? nextPacketFile(snapshot.packets.map((p) => p.file)) : ".coord/session_primer.md";
  return { markdown, budget, check: checkDraft(q.kind, markdown, budget), target };
}

function draftBudget(snapshot: CoordSnapshot, kind: "brief" | "primer"): number | null {
  const policy = signingPolicy(snapshot);
  if (!policy) return null;
  const limits = policy.policy.limits as Record<string, number>;
  return (kind === "brief" ? limits.max_task_packet_tokens : limits.max_parent_summary_tokens) ?? null;
}

/** Writes a packet or primer into .coord/ once its checks pass (atomic replace; a packet never overwrites another). */
export async function saveCoordDraft(projectId: string, raw: z.input<typeof saveDraftInput>): Promise<{ file: string; check: DraftCheck }> {
  const input = saveDraftInput.parse(raw);
  const project = await getProject(projectId);
  const snapshot = await readCoord(project.rootPath);
  const check = checkDraft(input.kind, input.markdown, draftBudget(snapshot, input.kind));
  if (!check.ready) throw new WorkbenchError("GATE_REFUSED", `Not written: ${check.issues.filter((i) => i.severity !== "warning").length} problem(s) stand, e.g. ${check.issues[0]?.message ?? ""}`, { issues: check.issues });
  const pfs = await ProjectFs.open(project.rootPath);
  const file = input.kind === "brief" ? nextPacketFile(snapshot.packets.map((p) => p.file)) : ".coord/session_primer.md";
  writeTextAtomic(pfs.resolve(file), input.markdown.endsWith("\n") ? input.markdown : `${input.markdown}\n`);
  return { file, check };
}
