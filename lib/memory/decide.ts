/**
 * Recording a human decision in a proposal file. The secret comes from this server's HumanKeys
 * (never from the request), the evidence is checked on disk here, and the file is re-read under a
 * create-only lock so two people deciding at once cannot both succeed: the second finds the
 * proposal already decided (CONFLICT).
 */
import { WorkbenchError } from "../core/errors";
import { ProjectFs } from "../core/project-fs";
import { readProposal } from "./apply";
import type { DecisionValue } from "./decision-record";
import { resolveEvidence } from "./evidence";
import { type HumanKeys, type KeyPinning, pinnedSecret } from "./keys";
import { acquireLock } from "./lock";
import { PROPOSAL_ID, type Proposal, decideProposal, proposalRelPath, serializeProposal } from "./proposal";

export interface DecideFileInput {
  decision: DecisionValue;
  rationale: string;
  keyId: string;
  now?: Date;
  /** Task recorded in the lock file. */
  taskId?: string;
}

export async function decideProposalFile(projectRoot: string, proposalId: string, input: DecideFileInput, ctx: { keys: HumanKeys | undefined; policy: KeyPinning }): Promise<Proposal> {
  // Checked before the lock is named after it: an id is never a path.
  if (!PROPOSAL_ID.test(proposalId)) throw new WorkbenchError("INVALID_INPUT", `"${proposalId}" is not a proposal id (a lowercase UUID).`);
  const pfs = await ProjectFs.open(projectRoot);
  const pinned = pinnedSecret(ctx.policy, ctx.keys, input.keyId);
  if (!pinned.ok) {
    const why = { key_not_pinned: "the policy does not pin this key id", no_secret: "this server has no secret for it", secret_hash_mismatch: "the secret on this server does not match the policy's pinned hash" }[
      pinned.code
    ];
    throw new WorkbenchError("GATE_REFUSED", `Cannot sign as ${input.keyId}: ${why}.`);
  }
  const rel = proposalRelPath(proposalId);
  // Read once before locking, so a missing or refused proposal creates nothing (not even a folder for its lock).
  await readProposal(pfs, proposalId);
  // The lock sits beside the proposal, in a real folder inside the project (a folder linking out is refused before anything is written).
  const lock = acquireLock(pfs, `${rel}.lock`, { taskId: input.taskId ?? "human-decision", proposalId, now: input.now });
  try {
    const proposal = await readProposal(pfs, proposalId);
    // The decided file replaces the proposal itself, never a link's target.
    pfs.writablePathSync(rel);
    const evidence = input.decision === "approve" ? await resolveEvidence(pfs, proposal.action.evidence_refs) : undefined;
    const next = decideProposal(proposal, {
      decision: input.decision,
      rationale: input.rationale,
      keyId: input.keyId,
      secret: pinned.secret,
      ...(input.now ? { now: input.now } : {}),
      ...(evidence ? { evidence } : {}),
      policy: ctx.policy,
      keys: ctx.keys,
    });
    pfs.writeTextAtomicSync(rel, serializeProposal(next));
    return next;
  } finally {
    lock.release();
  }
}
