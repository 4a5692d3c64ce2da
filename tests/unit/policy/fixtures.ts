import fs from "node:fs";
import path from "node:path";
import { sha256Hex } from "../../../lib/memory/canonical-json";
import { signRecord } from "../../../lib/memory/decision-record";
import { HumanKeys } from "../../../lib/memory/keys";

export const REPO = path.resolve(import.meta.dirname, "../../..");
/** The harness's examples/policy.json.sample and checkpoint.json.sample as the sample project holds them (the checkpoint's task_id names the sample's task). */
export const POLICY_SAMPLE = path.join(REPO, "examples/sample-project/.coord/policy.json");
export const CHECKPOINT_SAMPLE = path.join(REPO, "examples/sample-project/.coord/checkpoints/define-auth-contract.json");
export const samplePolicy = () => JSON.parse(fs.readFileSync(POLICY_SAMPLE, "utf8")) as Record<string, any>;
export const sampleCheckpoint = () => JSON.parse(fs.readFileSync(CHECKPOINT_SAMPLE, "utf8")) as Record<string, any>;

export const SECRET = "test-owner-secret";
export const KEYS = new HumanKeys({ owner: SECRET });
export const ACTION = "c".repeat(64);

/** The sample policy with owner's key pinned. */
export function signingPolicy(): Record<string, any> {
  const p = samplePolicy();
  p.human_authorization.key_hashes = { owner: sha256Hex(SECRET) };
  return p;
}

export function decision(gate: string, value: "approve" | "decline" | "revise", timestamp: string, keyId = "owner", secret = SECRET) {
  return signRecord({ gate, actor: `human:${keyId}`, decision: value, timestamp, rationale: "r", affected_action_hash: ACTION }, keyId, secret);
}

export function override(limit: string, value: number, observed: number, timestamp = "2026-08-31T00:00:00Z") {
  return signRecord({ limit, value, reason: "bounded extension", actor: "human:owner", timestamp, affected_action_hash: ACTION, observed_value: observed }, "owner", SECRET);
}

/** The sample checkpoint with fields replaced; pending_action_hash added when records exist. */
export function checkpoint(fields: Record<string, unknown> = {}): Record<string, any> {
  const c = { ...sampleCheckpoint(), ...fields };
  if ((c.decisions.length || c.overrides.length) && !("pending_action_hash" in fields)) c.pending_action_hash = ACTION;
  return c;
}
