/**
 * The review workflow of a packet: draft → in review → changes requested / approved.
 * An approval freezes the revision it was given on; saving a later revision sends the
 * packet back to draft, so the new text needs review again.
 */
import { WorkbenchError } from "../core/errors";
import { plural } from "../core/plural";

export const REVIEW_STATUSES = ["draft", "in_review", "changes_requested", "approved"] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const REVIEW_ACTIONS = ["request_review", "approve", "request_changes", "withdraw"] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

const TRANSITIONS: Record<ReviewAction, { from: readonly ReviewStatus[]; to: ReviewStatus }> = {
  request_review: { from: ["draft", "changes_requested"], to: "in_review" },
  approve: { from: ["in_review"], to: "approved" },
  request_changes: { from: ["in_review"], to: "changes_requested" },
  withdraw: { from: ["in_review", "approved"], to: "draft" },
};

export const ACTION_LABEL: Record<ReviewAction, string> = {
  request_review: "Request review",
  approve: "Approve",
  request_changes: "Request changes",
  withdraw: "Back to draft",
};

export function isReviewStatus(s: string): s is ReviewStatus {
  return (REVIEW_STATUSES as readonly string[]).includes(s);
}

/** Actions open from `status`. */
export function availableActions(status: ReviewStatus): ReviewAction[] {
  return REVIEW_ACTIONS.filter((a) => TRANSITIONS[a].from.includes(status));
}

/**
 * Where `action` leads from `status`, or a CONFLICT naming why not. Approving needs a
 * revision without BLOCK findings: an approved packet is one an agent may receive.
 */
export function nextStatus(status: ReviewStatus, action: ReviewAction, head: { blockCount: number }): ReviewStatus {
  const t = TRANSITIONS[action];
  if (!t.from.includes(status)) throw new WorkbenchError("CONFLICT", `Cannot ${ACTION_LABEL[action].toLowerCase()} a packet that is ${status.replace("_", " ")}.`);
  if (action === "approve" && head.blockCount > 0) throw new WorkbenchError("GATE_REFUSED", `Cannot approve: the revision has ${plural(head.blockCount, "BLOCK finding")}.`);
  return t.to;
}

/** The status after a new revision is saved: an approval does not carry over to new text. */
export function statusAfterSave(status: ReviewStatus): ReviewStatus {
  return status === "approved" ? "draft" : status;
}
