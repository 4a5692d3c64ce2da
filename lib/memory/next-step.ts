/**
 * What comes after a human decision on a memory proposal, for the review desk. An approval is
 * half of the journey: the event lands in `.coord/memory.yml` only when the approved proposal is
 * applied (FORMATS §4, seed 003), and applying re-checks the action hash, the signature and the
 * evidence. So the desk lists approved proposals that are not applied yet with what stands in
 * their way, and after each decision or apply says what happened and what is next.
 */
import type { CoordProposal } from "./coord-types";
import { PROPOSAL_ID } from "./proposal";

/** Approved, not applied, and not a replayed approval (which is never applied): what Apply is for. */
export function readyToApply(proposals: CoordProposal[]): CoordProposal[] {
  return proposals.filter((p) => p.proposal.state === "approved" && p.appliedAs === null && p.replayedWith.length === 0);
}

/**
 * Why applying this approved proposal would be refused now, in the order the apply step checks
 * (hash and signature, then evidence); empty when nothing stands in the way. The apply itself
 * checks again on the server: this only says it before anyone clicks.
 */
export function applyBlockers(p: CoordProposal): string[] {
  const out: string[] = [];
  if (p.proposal.state !== "approved") out.push(`it is ${p.proposal.state}, not approved`);
  if (p.appliedAs !== null) out.push(`it is already applied as ${p.appliedAs}`);
  if (p.replayedWith.length > 0) out.push(`its signed decision is also on ${p.replayedWith.join(", ")}`);
  if (p.verification === null) out.push("its signature cannot be checked here (no key on this server, or no policy pinning one)");
  else if (!p.verification.ok) out.push(`its signature does not verify (${p.verification.failures.map((f) => f.message).join("; ")})`);
  const unresolved = p.evidence.filter((e) => e.status !== "present");
  if (p.proposal.action.evidence_refs.length === 0) out.push("it cites no evidence refs");
  else if (unresolved.length > 0)
    out.push(
      `${unresolved.length === 1 ? "an evidence ref no longer resolves" : `${unresolved.length} evidence refs no longer resolve`}: ${unresolved.map((e) => `${e.ref} (${e.status.replace(/_/g, " ")})`).join(", ")}`,
    );
  return out;
}

export interface ProposalOutcome {
  proposalId: string;
  /** What happened, naming the proposal. */
  done: string;
  /** What comes next, when anything does. */
  next: string | null;
  /** The memory event the proposal became, to link to. */
  eventId: string | null;
}

/** A summary short enough for one line of a message. */
function quoted(summary: string): string {
  const one = summary.replace(/\s+/g, " ").trim();
  return `“${one.length > 100 ? `${one.slice(0, 99)}…` : one}”`;
}

/**
 * The message after a decision (`decided`) or an apply (`applied`) on the proposal with that id,
 * told from the proposal as it is on disk now, so a reload or a later change never makes it
 * claim something that is not so. Null for an id that is not a proposal here.
 */
export function proposalOutcome(proposals: CoordProposal[], done: { decided?: string; applied?: string }): ProposalOutcome | null {
  const id = done.applied ?? done.decided;
  if (!id || !PROPOSAL_ID.test(id)) return null;
  const p = proposals.find((x) => x.proposal.proposal_id === id);
  if (!p) return null;
  const { proposal } = p;
  const what = quoted(proposal.action.summary);
  if (p.appliedAs !== null) {
    return {
      proposalId: id,
      done: done.applied ? `Applied: ${what} is event ${p.appliedAs} in .coord/memory.yml.` : `Approved, and already applied: ${what} is event ${p.appliedAs} in .coord/memory.yml.`,
      next: "It is in Current memory below.",
      eventId: p.appliedAs,
    };
  }
  if (done.applied) return null;
  const decision = proposal.decision;
  if (proposal.state === "approved" && decision) {
    const blockers = applyBlockers(p);
    return {
      proposalId: id,
      done: `Approved and signed by ${decision.actor}: ${what}.`,
      next: blockers.length
        ? `It is not in memory yet, and cannot be applied until this is fixed: ${blockers.join("; ")}.`
        : "Next: apply it. It waits under “Approved — ready to apply”; Apply re-checks its action hash, signature and evidence, then appends it to .coord/memory.yml as one event.",
      eventId: null,
    };
  }
  if (proposal.state === "rejected" && decision) {
    return decision.decision === "revise"
      ? { proposalId: id, done: `Sent back for revision: ${what}. A revise is not an approval; the proposal is under Rejected.`, next: "Next: the agent writes a new proposal with the changes.", eventId: null }
      : { proposalId: id, done: `Declined: ${what}. Nothing is written to .coord/memory.yml; the proposal is under Rejected.`, next: null, eventId: null };
  }
  return null;
}
