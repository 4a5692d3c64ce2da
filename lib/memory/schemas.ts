/**
 * The memory API (agent-context-budget): a project's .coord/ desk, signed decisions on memory
 * proposals and goal gates, applying an approved proposal, checkpoint evaluations and the
 * bounded drafts written back. Pure (zod only): the browser's API client imports it.
 *
 * The documents under .coord/ are described field by field in lib/policy/schemas.ts and the
 * memory readers; the responses here name their parts and pass the nested documents on as read
 * (`opaque`), so a newer harness field never turns a good answer into an error.
 */
import { z } from "zod";
import { defineRoute, opaque, pathId, projectParams } from "../core/contract";

/** The memory lock every writer of memory.yml takes. */
export const LOCK_FILE = ".coord/memory.yml.lock";
export const PROPOSALS_DIR = ".coord/memory-proposals";
const PROPOSAL_LOCK = /^\.coord\/memory-proposals\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json\.lock$/;
export const CHECKPOINT_FILE = /^\.coord\/(?:checkpoint\.json|checkpoints\/[^/\\]+\.json)$/;
/** A gate decision's lock beside its checkpoint. */
const CHECKPOINT_LOCK = /^\.coord\/(?:checkpoint\.json|checkpoints\/[^/\\]+\.json)\.lock$/;

export const decisionValueSchema = z.enum(["approve", "decline", "revise"]).describe("the human's decision; only approve authorizes anything");

export const decisionInput = z.object({
  decision: z.enum(["approve", "decline", "revise"]).describe("the human decision; only approve lets the proposal be applied"),
  rationale: z.string().trim().min(1, "a rationale is required").max(4000).describe("why, recorded in the signed record"),
  keyId: z.string().min(1).max(200).describe("which pinned key signs (the secret stays on the server)"),
});

export const gateDecisionInput = z.object({
  file: z.string().max(300).regex(CHECKPOINT_FILE, "must be .coord/checkpoint.json or .coord/checkpoints/<name>.json").describe("the GoalCheckpoint v2 file whose task the decision is added to"),
  gate: z.string().trim().min(1, "a gate name is required").max(200).describe("the human gate decided (a name the host uses, e.g. an existing gate of the task)"),
  decision: decisionValueSchema,
  rationale: z.string().trim().min(1, "a rationale is required").max(4000).describe("why, recorded in the signed record"),
  keyId: z.string().min(1).max(200).describe("which pinned key signs (the secret stays on the server)"),
});

export const draftQuery = z.object({
  kind: z.enum(["brief", "primer"]).describe("brief: a bounded task packet (.coord/context_NNN.md); primer: .coord/session_primer.md"),
  task: z.string().max(200).optional().describe("task id the packet is for (brief only)"),
});

export const saveDraftInput = z.object({
  kind: z.enum(["brief", "primer"]).describe("what the text is"),
  markdown: z.string().min(1).max(200_000).describe("the text to write"),
});

export const breakLockInput = z.object({
  file: z
    .string()
    .max(200)
    .refine((f) => f === LOCK_FILE || PROPOSAL_LOCK.test(f) || CHECKPOINT_LOCK.test(f), `must be ${LOCK_FILE}, ${PROPOSALS_DIR}/<proposal_id>.json.lock or a checkpoint's <file>.json.lock`)
    .describe("the lock file to remove: the memory lock, one proposal's decision lock, or one checkpoint's gate decision lock"),
});

// ---------------------------------------------------------------------------
// Wire shapes

const coordIssueSchema = z
  .object({
    file: z.string().describe("the .coord file at fault"),
    message: z.string().describe("what is wrong"),
  })
  .describe("a problem with one .coord file");

const document = opaque;

const proposalSchema = z
  .object({
    proposal_id: z.string().describe("lowercase UUID"),
    state: z.string().describe("pending, approved or rejected"),
    action: document("the proposed memory operation: operation, target_ref, summary, evidence_refs"),
  })
  .describe("a memory proposal as stored (FORMATS §4)");

const draftCheckSchema = z
  .object({
    issues: z.array(coordIssueSchema).describe("what the checks found"),
    tokens: z.number().int().describe("tokens of the text"),
    tokenizer: z.string().describe("the tokenizer that counted them"),
    budget: z.number().int().nullable().describe("the policy's cap for this text, when there is one"),
    ready: z.boolean().describe("true when nothing blocks handing it on (warnings allowed)"),
  })
  .describe("the checks on a bounded brief or session primer");

const deskSchema = z
  .object({
    snapshot: z
      .object({
        root: z.string().describe("the project folder read"),
        proposals: z
          .array(
            z.object({
              file: z.string().describe("the proposal file"),
              proposal: proposalSchema,
              actionHash: z.string().describe("sha256 of the canonical JSON of the action"),
              evidence: z.array(document("one evidence ref resolved against the repository")).describe("the action's evidence refs, resolved"),
              appliedAs: z.string().nullable().describe("the memory event this proposal became, when applied"),
              verification: document("the decision signature's check").nullable().describe("null when no keys or policy were available"),
              replayedWith: z.array(z.string()).describe("other files carrying the same signed decision"),
            }),
          )
          .describe("every proposal file, validated"),
        memory: document("memory.yml: header, events, the current view and its conflicts").nullable(),
        checkpoints: z.array(document("a TaskCheckpoint v1 or GoalCheckpoint v2 with its file")).describe("checkpoints"),
        policies: z.array(document("a policy with its file")).describe("policies"),
        packets: z.array(document("a context_NNN.md bounded brief")).describe("bounded briefs"),
        primer: document("session_primer.md").nullable(),
        lock: document("the memory lock's status").nullable(),
        proposalLocks: z.array(document("a proposal's decision lock or a checkpoint's gate decision lock")).describe("decision locks"),
        errors: z.array(coordIssueSchema).describe("per-file problems"),
      })
      .describe("everything read from .coord/"),
    signers: z
      .array(
        z.object({
          keyId: z.string().describe("approver key id"),
          pinned: z.boolean().describe("the policy pins this key and the loaded secret matches"),
          reason: z.enum(["key_not_pinned", "secret_hash_mismatch"]).optional().describe("why the key cannot sign"),
        }),
      )
      .describe("the keys on this server and whether each can sign"),
    keyProblem: z.string().nullable().describe("why no key can sign here, when none can"),
    policyFile: z.string().nullable().describe("the policy whose pinned key hashes decide who may sign"),
  })
  .describe("a project's memory desk");

const taskEvaluationSchema = z
  .object({
    file: z.string().describe("the checkpoint file"),
    taskId: z.string().describe("its task id"),
    version: z.union([z.literal(1), z.literal(2)]).describe("TaskCheckpoint v1 or GoalCheckpoint v2"),
    policyFile: z.string().nullable().describe("the policy it was evaluated against"),
    decision: z.unknown().describe("the decision as plain JSON (PolicyDecision v1, GoalDecision v2, or the fail-closed envelope)"),
    decisionJson: z.string().describe("exactly what `workbench policy evaluate --json` prints for these two files"),
    exitCode: z.union([z.literal(0), z.literal(3), z.literal(4)]).describe("0 continue, 3 checkpoint, 4 stop"),
    outcome: document("the decision's fields the page shows"),
    reasons: z.array(z.object({ reason: z.string().describe("reason code"), words: z.string().describe("its meaning in words") })).describe("each reason in words"),
    metrics: z.array(document("a metric against its effective limit")).describe("TaskCheckpoint v1 metrics"),
    goal: document("goal totals, slice boundaries, compaction, review reserve, human gates").nullable(),
  })
  .describe("a checkpoint evaluated as `workbench policy evaluate` would");

// ---------------------------------------------------------------------------
// Routes

const tag = "memory";
const proposalParams = projectParams.extend({ proposalId: pathId("proposal id (lowercase uuid)") });

export const memoryRoutes = {
  desk: defineRoute({
    id: "memoryDesk",
    method: "GET",
    path: "/api/v1/projects/{id}/memory",
    tag,
    summary: "The project's .coord/",
    description: "Proposals with evidence and signature checks, memory view, checkpoints, policies, per-file errors, and which key ids can sign.",
    access: { kind: "project", role: "viewer" },
    params: projectParams,
    response: { status: 200, description: "the desk", json: deskSchema },
  }),
  breakLock: defineRoute({
    id: "breakCoordLock",
    method: "POST",
    path: "/api/v1/projects/{id}/memory/locks/break",
    tag,
    summary: "Remove a .coord lock left by a crash",
    description: "Only when this host confirms its owner process is gone; approvers only.",
    access: { kind: "project", role: "approver" },
    params: projectParams,
    body: breakLockInput,
    response: {
      status: 200,
      description: "the lock removed",
      json: z.object({ file: z.string().describe("the lock file"), removed: document("the lock's status when it was removed") }),
    },
    errors: ["CONFLICT", "NOT_FOUND"],
  }),
  decide: defineRoute({
    id: "decideProposal",
    method: "POST",
    path: "/api/v1/projects/{id}/proposals/{proposalId}/decision",
    tag,
    summary: "A signed human decision on a memory proposal",
    description: "Approve, decline or revise, written into the proposal file; the key's secret never leaves the server. Team mode: only a key bound to your account.",
    access: { kind: "project", role: "approver" },
    params: proposalParams,
    body: decisionInput,
    response: { status: 200, description: "the proposal as now stored", json: z.object({ proposal: proposalSchema }) },
    errors: ["GATE_REFUSED", "CONFLICT", "FORBIDDEN"],
  }),
  apply: defineRoute({
    id: "applyProposal",
    method: "POST",
    path: "/api/v1/projects/{id}/proposals/{proposalId}/apply",
    tag,
    summary: "Append the approved proposal's one event to .coord/memory.yml",
    description: "After re-verifying its hash and signature, under a create-only lock and an atomic replace.",
    access: { kind: "project", role: "approver" },
    params: proposalParams,
    response: { status: 201, description: "the event appended", json: z.object({ event: document("the memory event appended") }) },
    errors: ["GATE_REFUSED", "CONFLICT"],
  }),
  tasks: defineRoute({
    id: "taskEvaluations",
    method: "GET",
    path: "/api/v1/projects/{id}/tasks",
    tag,
    summary: "Each checkpoint evaluated as `workbench policy evaluate` would",
    description: "A PolicyDecision v1, or a GoalDecision v2 for a GoalCheckpoint under a goal policy (`decisionJson` holds the exact bytes).",
    access: { kind: "project", role: "viewer" },
    params: projectParams,
    response: { status: 200, description: "the evaluations", json: z.object({ tasks: z.array(taskEvaluationSchema).describe("one per checkpoint file") }) },
  }),
  gateDecision: defineRoute({
    id: "decideGoalGate",
    method: "POST",
    path: "/api/v1/projects/{id}/tasks/{taskId}/gate-decision",
    tag,
    summary: "A signed human decision at a goal gate",
    description: "Appended to the GoalCheckpoint's task; the key's secret never leaves the server.",
    access: { kind: "project", role: "approver" },
    params: projectParams.extend({ taskId: pathId("task id of the GoalCheckpoint", 200) }),
    body: gateDecisionInput,
    response: {
      status: 200,
      description: "the signed record",
      json: z.object({ file: z.string().describe("the checkpoint file written"), record: document("the signed gate decision record") }),
    },
    errors: ["GATE_REFUSED", "CONFLICT", "FORBIDDEN"],
  }),
  draft: defineRoute({
    id: "coordDraft",
    method: "GET",
    path: "/api/v1/projects/{id}/coord-drafts",
    tag,
    summary: "A bounded task packet or session primer drafted from .coord/, with its checks",
    access: { kind: "project", role: "viewer" },
    params: projectParams,
    query: draftQuery,
    response: {
      status: 200,
      description: "the draft",
      json: z.object({
        markdown: z.string().describe("the drafted text"),
        budget: z.number().int().nullable().describe("the policy's token cap for it"),
        actors: z.array(z.string()).describe("actors the project's records name"),
        check: draftCheckSchema,
        target: z.string().describe("the file it would be written to"),
      }),
    },
  }),
  saveDraft: defineRoute({
    id: "saveCoordDraft",
    method: "POST",
    path: "/api/v1/projects/{id}/coord-drafts",
    tag,
    summary: "Write a bounded brief or session primer into .coord/",
    description: "To .coord/context_NNN.md or .coord/session_primer.md; 422 while a check fails.",
    access: { kind: "project", role: "editor" },
    params: projectParams,
    body: saveDraftInput,
    response: { status: 201, description: "the file written", json: z.object({ file: z.string().describe("the file written"), check: draftCheckSchema }) },
    errors: ["GATE_REFUSED"],
  }),
};
