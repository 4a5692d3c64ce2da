/**
 * Recording a human decision in a proposal file. The secret comes from this server's HumanKeys
 * (never from the request), the evidence is checked on disk here, and the file is re-read under a
 * create-only lock so two people deciding at once cannot both succeed: the second finds the
 * proposal already decided (CONFLICT).
 */
import fs from "node:fs";
import { WorkbenchError } from "../core/errors";
import { ProjectFs } from "../core/project-fs";
import { writeFileAtomic } from "../core/fs/atomic-write";
import { readProposal } from "./apply";
import type { DecisionValue } from "./decision-record";
import { resolveEvidence } from "./evidence";
import { type HumanKeys, type KeyPinning, pinnedSecret } from "./keys";
import { acquireLock } from "./lock";
import { type Proposal, decideProposal, proposalRelPath, serializeProposal } from "./proposal";

export interface DecideFileInput {
  decision: DecisionValue;
  rationale: string;
  keyId: string;
  now?: Date;
  /** Task recorded in the lock file. */
  taskId?: string;
}

export async function decideProposalFile(projectRoot: string, proposalId: string, input: DecideFileInput, ctx: { keys: HumanKeys | undefined; policy: KeyPinning }): Promise<Proposal> {
  const pfs = await ProjectFs.open(projectRoot);
  const pinned = pinnedSecret(ctx.policy, ctx.keys, input.keyId);
  if (!pinned.ok) {
    const why = { key_not_pinned: "the policy does not pin this key id", no_secret: "this server has no secret for it", secret_hash_mismatch: "the secret on this server does not match the policy's pinned hash" }[pinned.code];
    throw new WorkbenchError("GATE_REFUSED", `Cannot sign as ${input.keyId}: ${why}.`);
  }
  const rel = proposalRelPath(proposalId);
  const filePath = pfs.resolve(rel);
  const lock = acquireLock(`${filePath}.lock`, { taskId: input.taskId ?? "human-decision", proposalId, now: input.now });
  try {
    const proposal = await readProposal(pfs, proposalId);
    if (!fs.lstatSync(filePath).isFile()) throw new WorkbenchError("UNSAFE_PATH", `${rel} is not a regular file.`);
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
    writeFileAtomic(filePath, (write) => write(serializeProposal(next)));
    return next;
  } finally {
    lock.release();
  }
}
