import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { ProjectFs } from "../../../lib/core/project-fs";
import { decideProposalFile } from "../../../lib/memory/decide";
import { verifyRecord } from "../../../lib/memory/decision-record";
import { resolveEvidence } from "../../../lib/memory/evidence";
import { type Proposal, actionHash, decideProposal, isApproval, proposalSchema, serializeProposal } from "../../../lib/memory/proposal";
import { ADD_ID, KEY_ID, SAMPLE, SECRET, SUPERSEDE_ID, keys, projectPolicy, proposalPath, removeCopies, sampleCopy } from "./helpers";

afterAll(removeCopies);

const read = (root: string, id: string): Proposal => proposalSchema.parse(JSON.parse(fs.readFileSync(proposalPath(root, id), "utf8")));
const NOW = new Date("2026-02-10T12:00:00Z");

describe("memory proposals", () => {
  it("validates the sample proposals and writes them back byte for byte", () => {
    for (const id of [ADD_ID, SUPERSEDE_ID]) {
      const text = fs.readFileSync(proposalPath(SAMPLE, id), "utf8");
      const p = proposalSchema.parse(JSON.parse(text));
      expect(serializeProposal(p)).toBe(text);
    }
  });

  it("enforces target_ref rules and decision/state consistency", () => {
    const p = read(SAMPLE, SUPERSEDE_ID);
    const issues = (v: unknown) => {
      const r = proposalSchema.safeParse(v);
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    };
    expect(issues({ ...p, action: { ...p.action, target_ref: null } })).toEqual(["action.target_ref: target_ref is required for supersede"]);
    expect(issues({ ...p, action: { ...p.action, operation: "add" } })).toEqual(["action.target_ref: target_ref must be null for add"]);
    expect(issues({ ...p, state: "approved" })).toEqual(["decision: an approved proposal must record the decision"]);
    expect(issues({ ...p, proposal_id: p.proposal_id.toUpperCase() })).toEqual(["proposal_id: proposal_id must be a canonical lowercase UUID"]);
  });

  it("approves with a signature bound to the action hash, once", async () => {
    const root = sampleCopy();
    const policy = projectPolicy(root);
    const approved = await decideProposalFile(root, ADD_ID, { decision: "approve", rationale: "Matches ADR 0002.", keyId: KEY_ID, now: NOW }, { keys, policy });
    expect(approved.state).toBe("approved");
    expect(isApproval(approved)).toBe(true);
    expect(approved.decision).toMatchObject({ actor: "human:priya", decision: "approve", timestamp: "2026-02-10T12:00:00Z", affected_action_hash: actionHash(approved.action) });
    expect(verifyRecord(approved.decision, policy, keys, { expectedActionHash: actionHash(approved.action) }).ok).toBe(true);
    // Written as the harness writes JSON, and the action is untouched.
    const text = fs.readFileSync(proposalPath(root, ADD_ID), "utf8");
    expect(text).toBe(serializeProposal(approved));
    expect(read(root, ADD_ID).action).toEqual(read(SAMPLE, ADD_ID).action);
    await expect(decideProposalFile(root, ADD_ID, { decision: "decline", rationale: "Changed my mind.", keyId: KEY_ID }, { keys, policy })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("records decline and revise as rejected: never approval", async () => {
    const root = sampleCopy();
    const policy = projectPolicy(root);
    const declined = await decideProposalFile(root, ADD_ID, { decision: "decline", rationale: "Not durable.", keyId: KEY_ID, now: NOW }, { keys, policy });
    expect(declined.state).toBe("rejected");
    expect(isApproval(declined)).toBe(false);
    const revised = await decideProposalFile(root, SUPERSEDE_ID, { decision: "revise", rationale: "Name the bucket.", keyId: KEY_ID, now: NOW }, { keys, policy });
    expect(revised.state).toBe("rejected");
    expect(revised.decision?.decision).toBe("revise");
    expect(isApproval(revised)).toBe(false);
    // A hand-edited "approved" state with a revise decision is not valid, so it can never pass as approval.
    expect(proposalSchema.safeParse({ ...revised, state: "approved" }).success).toBe(false);
  });

  it("refuses to approve a proposal without evidence refs (it stays pending)", () => {
    const p = read(SAMPLE, ADD_ID);
    const bare = { ...p, action: { ...p.action, evidence_refs: [] } };
    expect(() => decideProposal(bare, { decision: "approve", rationale: "ok", keyId: KEY_ID, secret: SECRET, evidence: [] })).toThrow(
      expect.objectContaining({ code: "GATE_REFUSED", message: "A proposal with no evidence refs cannot be approved; it stays pending." }),
    );
    // Decline needs no evidence.
    expect(decideProposal(bare, { decision: "decline", rationale: "no evidence", keyId: KEY_ID, secret: SECRET }).state).toBe("rejected");
  });

  it("refuses, through the file, to approve a proposal without evidence refs: the file stays proposed", async () => {
    const root = sampleCopy();
    const file = proposalPath(root, ADD_ID);
    const p = JSON.parse(fs.readFileSync(file, "utf8"));
    p.action.evidence_refs = [];
    fs.writeFileSync(file, JSON.stringify(p, null, 2) + "\n");
    const before = fs.readFileSync(file, "utf8");
    await expect(decideProposalFile(root, ADD_ID, { decision: "approve", rationale: "ok", keyId: KEY_ID, now: NOW }, { keys, policy: projectPolicy(root) })).rejects.toMatchObject({
      code: "GATE_REFUSED",
      message: "A proposal with no evidence refs cannot be approved; it stays pending.",
    });
    expect(fs.readFileSync(file, "utf8")).toBe(before);
    expect(read(root, ADD_ID)).toMatchObject({ state: "proposed", decision: null });
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  it("reports missing evidence per ref and refuses approval", async () => {
    const root = sampleCopy();
    fs.rmSync(`${root}/docs/runbooks/session-revocation.md`);
    const pfs = await ProjectFs.open(root);
    const checks = await resolveEvidence(pfs, [
      "src/auth/SessionService.ts",
      "docs/runbooks/session-revocation.md",
      "../outside.md",
      "https://example.com/x",
      "src/auth/SessionService.ts#revoke",
      "src/auth/SessionService.ts:12-20",
    ]);
    expect(checks.map((c) => [c.ref, c.status])).toEqual([
      ["src/auth/SessionService.ts", "present"],
      ["docs/runbooks/session-revocation.md", "missing"],
      ["../outside.md", "outside_project"],
      ["https://example.com/x", "not_a_path"],
      ["src/auth/SessionService.ts#revoke", "present"],
      ["src/auth/SessionService.ts:12-20", "present"],
    ]);
    await expect(decideProposalFile(root, ADD_ID, { decision: "approve", rationale: "ok", keyId: KEY_ID }, { keys, policy: projectPolicy(root) })).rejects.toMatchObject({
      code: "GATE_REFUSED",
      message: "Evidence does not resolve: docs/runbooks/session-revocation.md: missing.",
    });
    expect(read(root, ADD_ID).state).toBe("proposed");
  });

  it("refuses to sign with a key the policy does not pin", async () => {
    const root = sampleCopy();
    await expect(decideProposalFile(root, ADD_ID, { decision: "approve", rationale: "ok", keyId: "mallory" }, { keys, policy: projectPolicy(root) })).rejects.toMatchObject({ code: "GATE_REFUSED" });
    // A raw secret that does not hash to the pin is caught when the policy is given.
    expect(() => decideProposal(read(root, ADD_ID), { decision: "decline", rationale: "x", keyId: KEY_ID, secret: "wrong", policy: projectPolicy(root), keys })).toThrow(expect.objectContaining({ code: "GATE_REFUSED" }));
  });
});
