import { describe, expect, it } from "vitest";
import type { CoordProposal } from "../../../lib/memory/coord-types";
import { applyBlockers, proposalOutcome, readyToApply } from "../../../lib/memory/next-step";

const ID = "8d3a6f12-4b7e-4c91-9f0a-1e5d2c8b7a63";
const OTHER = "e27b9c40-5f18-4a3d-8e6c-9b1d0f4a2c75";
const SUMMARY = "SessionService is the only writer of the sessions table; revoke sessions through revoke() or revokeAllForUser(), never with direct SQL.";

function proposal(over: Partial<CoordProposal> & { state?: "proposed" | "approved" | "rejected"; decision?: "approve" | "decline" | "revise" | null; id?: string } = {}): CoordProposal {
  const { state = "approved", decision = state === "proposed" ? null : state === "approved" ? "approve" : "decline", id = ID, ...rest } = over;
  return {
    file: `.coord/memory-proposals/${id}.json`,
    proposal: {
      schema_version: 1,
      proposal_id: id,
      source_task: "define-auth-contract",
      action: { operation: "add", target_ref: null, summary: SUMMARY, evidence_refs: ["src/auth/SessionService.ts"] },
      state,
      created_at: "2026-02-05T09:12:00Z",
      decision: decision
        ? {
            actor: "human:ana",
            decision,
            timestamp: "2026-02-10T10:00:00Z",
            rationale: "Matches ADR 0002",
            affected_action_hash: "a".repeat(64),
            authorization: { scheme: "hmac-sha256", key_id: "ana", signature: "b".repeat(64) },
          }
        : null,
    },
    actionHash: "a".repeat(64),
    evidence: [{ ref: "src/auth/SessionService.ts", status: "present", form: "path", path: "src/auth/SessionService.ts" }],
    appliedAs: null,
    verification: decision ? { ok: true, keyId: "ana" } : null,
    replayedWith: [],
    ...rest,
  } as CoordProposal;
}

describe("readyToApply", () => {
  it("lists approved proposals not applied yet, never a replayed approval", () => {
    const ready = proposal();
    const list = [
      ready,
      proposal({ id: OTHER, appliedAs: "M3" }),
      proposal({ id: "0b7f2d9e-1c3a-4e5f-8a6b-7c8d9e0f1a2b", state: "proposed" }),
      proposal({ id: "5d1e9a7c-2b4f-4c6d-8e0a-1f2b3c4d5e6f", replayedWith: ["x.json"] }),
    ];
    expect(readyToApply(list)).toEqual([ready]);
  });
});

describe("applyBlockers: what the apply step would refuse, said before anyone clicks", () => {
  it("is empty when the signature verifies and every evidence ref resolves", () => {
    expect(applyBlockers(proposal())).toEqual([]);
  });

  it("names a signature that does not verify, one that cannot be checked, and evidence that no longer resolves", () => {
    expect(applyBlockers(proposal({ verification: { ok: false, failures: [{ code: "bad_signature", message: "decision has an invalid human authorization signature" }] } }))).toEqual([
      "its signature does not verify (decision has an invalid human authorization signature)",
    ]);
    expect(applyBlockers(proposal({ verification: null }))[0]).toMatch(/^its signature cannot be checked here/);
    expect(applyBlockers(proposal({ evidence: [{ ref: "src/auth/SessionService.ts", status: "missing", form: "path" }] }))).toEqual(["an evidence ref no longer resolves: src/auth/SessionService.ts (missing)"]);
  });
});

describe("proposalOutcome: what happened and what is next, told from the proposal as stored", () => {
  it("after an approval, names the signer and the proposal and says the next step is to apply it", () => {
    const o = proposalOutcome([proposal()], { decided: ID })!;
    expect(o.done).toBe(`Approved and signed by human:ana: “${SUMMARY.slice(0, 99)}…”.`);
    expect(o.next).toMatch(/^Next: apply it\. It waits under “Approved — ready to apply”/);
    expect(o.eventId).toBeNull();
  });

  it("after an approval that cannot be applied yet, says why instead of promising the apply", () => {
    const o = proposalOutcome([proposal({ evidence: [{ ref: "src/auth/SessionService.ts", status: "missing", form: "path" }] })], { decided: ID })!;
    expect(o.next).toBe("It is not in memory yet, and cannot be applied until this is fixed: an evidence ref no longer resolves: src/auth/SessionService.ts (missing).");
  });

  it("after an apply, names the memory event it became", () => {
    expect(proposalOutcome([proposal({ appliedAs: "M3" })], { applied: ID })).toMatchObject({ done: expect.stringMatching(/^Applied: “SessionService .*” is event M3 in \.coord\/memory\.yml\.$/), eventId: "M3" });
    // A stale "decided" message after a later apply tells the truth of now.
    expect(proposalOutcome([proposal({ appliedAs: "M3" })], { decided: ID })?.done).toMatch(/^Approved, and already applied: .* is event M3/);
  });

  it("after a decline or a revise, never calls it an approval", () => {
    expect(proposalOutcome([proposal({ state: "rejected", decision: "decline" })], { decided: ID })).toMatchObject({ done: expect.stringMatching(/^Declined: .*Nothing is written to \.coord\/memory\.yml/), next: null });
    expect(proposalOutcome([proposal({ state: "rejected", decision: "revise" })], { decided: ID })?.done).toMatch(/^Sent back for revision: .*A revise is not an approval/);
  });

  it("says nothing for an id that is not a proposal here, a proposal still pending, or an apply that did not happen", () => {
    expect(proposalOutcome([proposal()], { decided: "../../etc/passwd" })).toBeNull();
    expect(proposalOutcome([proposal()], { decided: OTHER })).toBeNull();
    expect(proposalOutcome([proposal({ state: "proposed" })], { decided: ID })).toBeNull();
    expect(proposalOutcome([proposal()], { applied: ID })).toBeNull();
    expect(proposalOutcome([proposal()], {})).toBeNull();
  });
});
