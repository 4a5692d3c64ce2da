/**
 * Memory proposals: `.coord/memory-proposals/<proposal_id>.json` (FORMATS §4).
 *
 * An agent proposes an immutable `action`; only a signed human approval bound to the action's
 * hash lets it be applied. Decline and revise close the proposal without authorizing anything
 * (a revise asks for a new proposal; the reference: "A revise decision produces a new proposal
 * and does not authorize application"). A proposal with no evidence refs cannot be approved, and
 * neither can one whose refs do not all resolve.
 *
 * States: `proposed` (decision null) -> `approved` (decision approve) or `rejected` (decision
 * decline or revise). A decided proposal is never decided again.
 */
import { z } from "zod";
import { WorkbenchError } from "../core/errors";
import { canonicalJson, pyJsonDumps, sha256Hex } from "./canonical-json";
import { type DecisionValue, type ProposalDecision, proposalDecisionSchema, signRecord, verifyRecord } from "./decision-record";
import { type EvidenceCheck, allEvidencePresent, describeEvidenceProblems } from "./evidence";
import type { HumanKeys, KeyPinning } from "./keys";
import { PROPOSALS_DIR } from "./schemas";
import { formatTimestamp, isAwareTimestamp } from "./timestamp";

export const PROPOSAL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export { PROPOSALS_DIR };

const nonBlank = (what: string) => z.string().regex(/\S/, `${what} must be a non-empty string`);

export const proposalActionSchema = z
  .strictObject({
    operation: z.enum(["add", "supersede", "archive", "delete"]).describe("add a fact; supersede, archive or delete the event named by target_ref"),
    target_ref: nonBlank("target_ref").nullable().describe("event id the operation acts on: null for add, required otherwise"),
    summary: nonBlank("summary").describe("the durable fact as it will appear in memory"),
    evidence_refs: z.array(nonBlank("evidence ref")).describe("project paths that support the fact; approval needs at least one, all resolving"),
  })
  .superRefine((a, ctx) => {
    if (a.operation === "add" && a.target_ref !== null) ctx.addIssue({ code: "custom", path: ["target_ref"], message: "target_ref must be null for add" });
    if (a.operation !== "add" && a.target_ref === null) ctx.addIssue({ code: "custom", path: ["target_ref"], message: `target_ref is required for ${a.operation}` });
  })
  .describe("the immutable action a human approves; its canonical-JSON SHA-256 is the affected_action_hash");

export const proposalSchema = z
  .strictObject({
    schema_version: z.literal(1).describe("always 1"),
    proposal_id: z.string().regex(PROPOSAL_ID, "proposal_id must be a canonical lowercase UUID").describe("lowercase UUID; also the file name"),
    source_task: nonBlank("source_task").describe("task id that produced the proposal"),
    action: proposalActionSchema,
    state: z.enum(["proposed", "approved", "rejected"]).describe("proposed until a human decides; approved or rejected after"),
    created_at: z.string().refine(isAwareTimestamp, "created_at must be an ISO 8601 date-time with a timezone").describe("when the proposal was written"),
    decision: proposalDecisionSchema.nullable().describe("null while proposed; the signed human decision after"),
  })
  .superRefine((p, ctx) => {
    if (p.state === "proposed" && p.decision !== null) ctx.addIssue({ code: "custom", path: ["decision"], message: "a proposed record must have a null decision" });
    if (p.state !== "proposed" && p.decision === null) ctx.addIssue({ code: "custom", path: ["decision"], message: `${p.state === "approved" ? "an" : "a"} ${p.state} proposal must record the decision` });
    if (p.state === "approved" && p.decision && p.decision.decision !== "approve")
      ctx.addIssue({ code: "custom", path: ["decision", "decision"], message: `an approved proposal needs decision "approve", not "${p.decision.decision}"` });
    if (p.state === "rejected" && p.decision && p.decision.decision === "approve") ctx.addIssue({ code: "custom", path: ["decision", "decision"], message: 'a rejected proposal cannot carry decision "approve"' });
    if (p.decision && p.decision.affected_action_hash !== actionHash(p.action)) {
      ctx.addIssue({ code: "custom", path: ["decision", "affected_action_hash"], message: "affected_action_hash does not match the action (the action changed after the decision)" });
    }
  })
  .describe("a memory proposal: .coord/memory-proposals/<proposal_id>.json");

export type ProposalAction = z.infer<typeof proposalActionSchema>;
export type Proposal = z.infer<typeof proposalSchema>;

/** sha256 of the canonical JSON of the action alone (never state or decision metadata). */
export function actionHash(action: ProposalAction | Record<string, unknown>): string {
  return sha256Hex(canonicalJson(action));
}

/** The file a proposal lives in, relative to the project root. */
export function proposalRelPath(proposalId: string): string {
  return `${PROPOSALS_DIR}/${proposalId}.json`;
}

/** The file text as the harness writes JSON (2-space indent, keys in schema order, UTF-8 kept). */
export function serializeProposal(p: Proposal): string {
  const ordered = {
    schema_version: p.schema_version,
    proposal_id: p.proposal_id,
    source_task: p.source_task,
    action: { operation: p.action.operation, target_ref: p.action.target_ref, summary: p.action.summary, evidence_refs: p.action.evidence_refs },
    state: p.state,
    created_at: p.created_at,
    decision: p.decision
      ? {
          actor: p.decision.actor,
          decision: p.decision.decision,
          timestamp: p.decision.timestamp,
          rationale: p.decision.rationale,
          affected_action_hash: p.decision.affected_action_hash,
          authorization: { scheme: p.decision.authorization.scheme, key_id: p.decision.authorization.key_id, signature: p.decision.authorization.signature },
        }
      : null,
  };
  return pyJsonDumps(ordered, { indent: 2, sortKeys: false }) + "\n";
}

export interface DecideInput {
  decision: DecisionValue;
  rationale: string;
  keyId: string;
  /** The signing secret, from the server's HumanKeys (never from a request). */
  secret: string;
  now?: Date;
  /** Per-ref resolution of the action's evidence (from resolveEvidence); required to approve. */
  evidence?: readonly EvidenceCheck[];
  /** When given, the new record must verify under this policy's pinned keys before it is returned. */
  policy?: KeyPinning;
  keys?: HumanKeys;
}

/**
 * The proposal after a human decision, signed. Refuses (CONFLICT) a proposal that is already
 * decided and (GATE_REFUSED) an approval without evidence or with unresolved evidence. Decline
 * and revise give state "rejected": a proposed record has a null decision by definition, and a
 * revise asks for a new proposal rather than reopening this one.
 */
export function decideProposal(proposal: Proposal, input: DecideInput): Proposal {
  const parsed = proposalSchema.safeParse(proposal);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new WorkbenchError("INVALID_INPUT", `The proposal is not valid: ${i.path.join(".") || "(root)"}: ${i.message}`);
  }
  if (proposal.state !== "proposed" || proposal.decision !== null) {
    throw new WorkbenchError("CONFLICT", `Proposal ${proposal.proposal_id} is already ${proposal.state}; a decided proposal is not decided again.`);
  }
  if (!/\S/.test(input.rationale)) throw new WorkbenchError("INVALID_INPUT", "A decision needs a rationale.");
  if (!/^\S+$/.test(input.keyId)) throw new WorkbenchError("INVALID_INPUT", "The key id must be non-empty without whitespace.");
  const hash = actionHash(proposal.action);
  if (input.decision === "approve") {
    if (proposal.action.evidence_refs.length === 0) {
      throw new WorkbenchError("GATE_REFUSED", "A proposal with no evidence refs cannot be approved; it stays pending.");
    }
    const checks = input.evidence;
    if (!checks) throw new WorkbenchError("GATE_REFUSED", "Evidence was not checked; approval needs every evidence ref resolved.");
    const checked = new Set(checks.map((c) => c.ref));
    const unchecked = proposal.action.evidence_refs.filter((r) => !checked.has(r));
    if (unchecked.length > 0) throw new WorkbenchError("GATE_REFUSED", `Evidence not checked: ${unchecked.join(", ")}.`);
    if (!allEvidencePresent(checks.filter((c) => proposal.action.evidence_refs.includes(c.ref)))) {
      throw new WorkbenchError("GATE_REFUSED", `Evidence does not resolve: ${describeEvidenceProblems(checks)}.`, { evidence: checks });
    }
  }
  const unsigned = {
    actor: `human:${input.keyId}`,
    decision: input.decision,
    timestamp: formatTimestamp(input.now ?? new Date()),
    rationale: input.rationale,
    affected_action_hash: hash,
  };
  const record = signRecord(unsigned, input.keyId, input.secret) as ProposalDecision;
  if (input.policy) {
    const v = verifyRecord(record, input.policy, input.keys, { expectedActionHash: hash, label: "proposal decision" });
    if (!v.ok) throw new WorkbenchError("GATE_REFUSED", v.failures.map((f) => f.message).join("; "));
  }
  return { ...proposal, state: input.decision === "approve" ? "approved" : "rejected", decision: record };
}

/** True only for an approved proposal whose decision says approve: decline and revise never count. */
export function isApproval(p: Pick<Proposal, "state" | "decision">): boolean {
  return p.state === "approved" && p.decision?.decision === "approve";
}
