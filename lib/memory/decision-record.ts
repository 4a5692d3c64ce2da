/**
 * Signed human decision records (FORMATS §4): a human's approve / decline / revise, bound to the
 * hash of the exact action it decides and signed by the trusted host with HMAC-SHA256.
 *
 *   signature = HMAC-SHA256(secret, canonicalJson(record minus "authorization"))
 *
 * Verification fails closed: the record counts only when the actor is `human:<key_id>`, the
 * policy pins that key id, this server holds the secret and it hashes to the pin, the signature
 * matches (compared in constant time), and, when the caller knows the action at stake, the
 * record's `affected_action_hash` is that action's hash. Otherwise every failing check is listed,
 * each with a stable code and a message in the harness's wording.
 *
 * Two shapes exist: a checkpoint gate decision carries a `gate`; a memory proposal's decision
 * does not (FORMATS lists it without one). Both sign "everything but authorization".
 */
import crypto from "node:crypto";
import { z } from "zod";
import { canonicalJson, utf8Strict } from "./canonical-json";
import { type HumanKeys, type KeyPinning, pinnedSecret } from "./keys";
import { decisionValueSchema } from "./schemas";
import { isAwareTimestamp } from "./timestamp";

export const HEX64 = /^[a-f0-9]{64}$/;
const nonBlank = (what: string) => z.string().regex(/\S/, `${what} must be a non-empty string`);

export const authorizationSchema = z
  .strictObject({
    scheme: z.literal("hmac-sha256").describe('signature scheme; only "hmac-sha256" exists'),
    key_id: z.string().regex(/^\S+$/, "key_id must be non-empty without whitespace").describe("id of the human key that signed; the policy pins its SHA-256"),
    signature: z.string().regex(HEX64, "signature must be 64 lowercase hex characters").describe("HMAC-SHA256 (hex) of the canonical JSON of the record without this authorization object"),
  })
  .describe("trusted-host authorization of a human record");

export { decisionValueSchema };

const recordFields = {
  actor: z
    .string()
    .regex(/^human:\S+$/, "actor must use the human: namespace")
    .describe('"human:<key_id>" of the key that signed'),
  decision: decisionValueSchema,
  timestamp: z.string().refine(isAwareTimestamp, "timestamp must be an ISO 8601 date-time with a timezone").describe("when the human decided (ISO 8601 with timezone)"),
  rationale: nonBlank("rationale").describe("why, in the human's words"),
  affected_action_hash: z.string().regex(HEX64, "affected_action_hash must be a lowercase SHA-256 hex digest").describe("SHA-256 of the canonical JSON of the action decided"),
  authorization: authorizationSchema,
};

/** A checkpoint's human gate decision (TaskCheckpoint v1 `decisions[]`). */
export const gateDecisionSchema = z
  .strictObject({
    gate: nonBlank("gate").describe("name of the human gate this decision answers"),
    ...recordFields,
  })
  .describe("signed human decision at a named gate");

/** A memory proposal's decision (no gate: FORMATS lists the proposal decision without one). */
export const proposalDecisionSchema = z.strictObject(recordFields).describe("signed human decision on a memory proposal");

export type Authorization = z.infer<typeof authorizationSchema>;
export type DecisionValue = z.infer<typeof decisionValueSchema>;
export type GateDecision = z.infer<typeof gateDecisionSchema>;
export type ProposalDecision = z.infer<typeof proposalDecisionSchema>;

/** Any record that can be signed: plain JSON fields, `authorization` added by {@link signRecord}. */
export type UnsignedRecord = Record<string, unknown> & { authorization?: never };

/** The exact text that is signed: canonical JSON of every field except `authorization`. */
export function signingPayload(record: Record<string, unknown>): string {
  const payload: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) if (k !== "authorization") payload[k] = v;
  return canonicalJson(payload);
}

/** HMAC-SHA256 hex of a record's signing payload. */
export function computeSignature(record: Record<string, unknown>, secret: string): string {
  if (!secret) throw new Error("human authorization secret must not be empty");
  return crypto
    .createHmac("sha256", utf8Strict(secret))
    .update(utf8Strict(signingPayload(record)))
    .digest("hex");
}

/** Adds the authorization object (after every other field, as the harness writes it). */
export function signRecord<T extends Record<string, unknown>>(record: T, keyId: string, secret: string): Omit<T, "authorization"> & { authorization: Authorization } {
  const { authorization: _drop, ...rest } = record as T & { authorization?: unknown };
  return { ...rest, authorization: { scheme: "hmac-sha256", key_id: keyId, signature: computeSignature(rest, secret) } } as Omit<T, "authorization"> & { authorization: Authorization };
}

export type RecordFailureCode = "malformed" | "unsupported_scheme" | "actor_mismatch" | "key_not_pinned" | "no_secret" | "secret_hash_mismatch" | "bad_signature" | "action_hash_mismatch";

export interface RecordFailure {
  code: RecordFailureCode;
  message: string;
}

export type VerifyResult = { ok: true; keyId: string } | { ok: false; failures: RecordFailure[] };

function safeEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a, "utf8");
  const bb = Buffer.from(b, "utf8");
  return ba.length === bb.length && crypto.timingSafeEqual(ba, bb);
}

export interface VerifyOptions {
  /** Hash of the action the caller is about to act on; the record must name exactly this one. */
  expectedActionHash?: string;
  /** How messages name the record (`checkpoint.decisions[0]`, `proposal decision`). */
  label?: string;
}

/** Verifies a signed human record against the policy's pinned keys and this server's secrets. */
export function verifyRecord(record: unknown, policy: KeyPinning, keys: HumanKeys | undefined, opts: VerifyOptions = {}): VerifyResult {
  const label = opts.label ?? "decision";
  const malformed = (what: string): VerifyResult => ({ ok: false, failures: [{ code: "malformed", message: `${label} is not a signed human record: ${what}` }] });
  if (record === null || typeof record !== "object" || Array.isArray(record)) return malformed("not an object");
  const r = record as Record<string, unknown>;
  const auth = r.authorization as Record<string, unknown> | undefined;
  if (auth === null || typeof auth !== "object" || Array.isArray(auth)) return malformed("no authorization object");
  if (typeof auth.key_id !== "string" || auth.key_id === "") return malformed("authorization.key_id is missing");
  if (typeof auth.signature !== "string") return malformed("authorization.signature is missing");
  if (typeof r.actor !== "string") return malformed("actor is missing");
  if (typeof r.affected_action_hash !== "string") return malformed("affected_action_hash is missing");
  const keyId = auth.key_id;
  const failures: RecordFailure[] = [];

  if (auth.scheme !== "hmac-sha256") failures.push({ code: "unsupported_scheme", message: `${label}.authorization.scheme must be hmac-sha256` });
  if (r.actor !== `human:${keyId}`) failures.push({ code: "actor_mismatch", message: `${label}.actor must match authorization key_id human:${keyId}` });

  const pinned = pinnedSecret(policy, keys, keyId);
  if (!pinned.ok) {
    const message = {
      key_not_pinned: `${label} key id is not authorized by the canonical policy: ${keyId}`,
      no_secret: `${label} has no configured human authorization key: ${keyId}`,
      secret_hash_mismatch: `${label} human authorization key does not match canonical policy: ${keyId}`,
    }[pinned.code];
    failures.push({ code: pinned.code, message });
  } else {
    let expected: string;
    try {
      expected = computeSignature(r, pinned.secret);
    } catch (e) {
      return malformed(e instanceof Error ? e.message : "cannot be canonicalised");
    }
    if (!safeEqual(expected, auth.signature)) failures.push({ code: "bad_signature", message: `${label} has an invalid human authorization signature` });
  }

  if (opts.expectedActionHash !== undefined && !safeEqual(r.affected_action_hash, opts.expectedActionHash)) {
    failures.push({
      code: "action_hash_mismatch",
      message: `${label}.affected_action_hash ${r.affected_action_hash} does not match the action's hash ${opts.expectedActionHash}`,
    });
  }
  return failures.length === 0 ? { ok: true, keyId } : { ok: false, failures };
}
