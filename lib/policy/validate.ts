/**
 * The harness's own validators for policies and TaskCheckpoints, reproduced check for check and
 * message for message: `policy evaluate` turns the first failure into
 * `evaluation_error:<message>`, so both the order of the checks and their wording are output.
 *
 * Python semantics kept: ints and floats differ (`3.0` is not an integer; see py-json.ts), bools
 * are not numbers, strings count as empty when Python's `str.strip()` empties them, and hash
 * fields are checked after stripping. Two deliberate differences, both failing closed: `true`
 * is not accepted where `1` is required (Python has `True == 1`), and integers past 2^53 are
 * refused. The optional checkpoint fields are checked in the listed order (Python iterates a set).
 */
import { PyFloat, compareCodePoints, pyNumberStr } from "../memory/canonical-json";
import { hasPyWhitespace } from "../memory/keys";
import { parseTimestamp } from "../memory/timestamp";
import { CHECKPOINT_STATUSES, LIMIT_NAMES, PORTABLE_CONTEXT_NAMES, PORTABLE_LIMIT_NAMES, PORTABLE_TERMINAL_STATES, type LimitName } from "./schemas";

export class PolicyValidationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PolicyValidationError";
  }
}

const fail = (message: string): never => {
  throw new PolicyValidationError(message);
};

type Obj = Record<string, unknown>;

const PY_STRIP = /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/** Python `str.strip()`. */
export function pyStrip(s: string): string {
  return s.replace(PY_STRIP, "");
}

/** Python `str(value)` for the few values a message can quote. */
export function pyStr(v: unknown): string {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "bigint" || v instanceof PyFloat) return pyNumberStr(v);
  return JSON.stringify(v) ?? String(v);
}

/** Python `x == 1` (or 2) for a JSON value, except that `true` is refused. */
function isVersion(v: unknown, n: number): boolean {
  return v === n || (v instanceof PyFloat && v.value === n);
}

function isObject(v: unknown): v is Obj {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof PyFloat);
}

function object(value: unknown, label: string): Obj {
  if (!isObject(value)) fail(`${label} must be an object`);
  return value as Obj;
}

const has = (o: Obj, k: string) => Object.prototype.hasOwnProperty.call(o, k);

function exactKeys(value: Obj, allowed: readonly string[], required: readonly string[], label: string): void {
  const missing = required.filter((k) => !has(value, k)).sort(compareCodePoints);
  if (missing.length) fail(`missing ${label} fields: ${missing.join(", ")}`);
  const unexpected = Object.keys(value)
    .filter((k) => !allowed.includes(k))
    .sort(compareCodePoints);
  if (unexpected.length) fail(`unexpected ${label} fields: ${unexpected.join(", ")}`);
}

function nonemptyString(value: unknown, label: string): string {
  if (typeof value !== "string" || !pyStrip(value)) fail(`${label} must be a non-empty string`);
  return pyStrip(value as string);
}

export function isNonNegativeInt(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function nonnegativeInteger(value: unknown, label: string): number {
  if (typeof value === "bigint" && value >= 0n) fail(`${label} is too large (integers above 2^53 are not supported)`);
  if (!isNonNegativeInt(value)) fail(`${label} must be a non-negative integer`);
  if (!Number.isSafeInteger(value)) fail(`${label} is too large (integers above 2^53 are not supported)`);
  return value as number;
}

function nonnegativeNumber(value: unknown, label: string): number | PyFloat {
  if (typeof value === "bigint" && value >= 0n) fail(`${label} is too large (integers above 2^53 are not supported)`);
  const n = value instanceof PyFloat ? value.value : typeof value === "number" ? value : NaN;
  if (!(typeof value === "number" || value instanceof PyFloat) || !(n >= 0) || !Number.isFinite(n)) fail(`${label} must be a finite non-negative number`);
  if (typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value)) fail(`${label} is too large (integers above 2^53 are not supported)`);
  return value as number | PyFloat;
}

function timestamp(value: unknown, label: string): string {
  const text = nonemptyString(value, label);
  const p = parseTimestamp(text);
  if (!p.ok) fail(p.reason === "naive" ? `${label} must include a timezone` : `${label} must be an ISO 8601 date-time`);
  return value as string;
}

function uniqueStrings(value: unknown, label: string): string[] {
  if (!Array.isArray(value)) fail(`${label} must be an array`);
  const result = (value as unknown[]).map((item) => nonemptyString(item, `${label}[]`));
  if (new Set(result).size !== result.length) fail(`${label} must not contain duplicates`);
  return result;
}

function sha256(value: unknown, label: string): string {
  const text = nonemptyString(value, label);
  if (!/^[0-9a-f]{64}$/.test(text)) fail(`${label} must be a lowercase SHA-256 hex digest`);
  return text;
}

function authorization(value: unknown, label: string): void {
  const a = object(value, label);
  const keys = ["scheme", "key_id", "signature"];
  exactKeys(a, keys, keys, label);
  if (a.scheme !== "hmac-sha256") fail(`${label}.scheme must be hmac-sha256`);
  const keyId = nonemptyString(a.key_id, `${label}.key_id`);
  if (hasPyWhitespace(keyId)) fail(`${label}.key_id must not contain whitespace`);
  sha256(a.signature, `${label}.signature`);
}

function limitValues(limits: Obj): void {
  // Dict order: the file's own key order decides which bad limit is named first.
  for (const [key, value] of Object.entries(limits)) nonnegativeInteger(value, `policy.limits.${key}`);
  if ((limits.max_transcript_bytes as number) < (limits.checkpoint_transcript_bytes as number)) fail("policy.limits.max_transcript_bytes must be >= checkpoint_transcript_bytes");
  if ((limits.max_concurrency as number) > (limits.max_children_per_parent as number)) fail("policy.limits.max_concurrency must be <= max_children_per_parent");
}

function humanAuthorization(value: unknown): Record<string, string> {
  const a = object(value, "policy.human_authorization");
  exactKeys(a, ["key_hashes"], ["key_hashes"], "policy.human_authorization");
  const hashes = object(a.key_hashes, "policy.human_authorization.key_hashes");
  for (const [keyId, keyHash] of Object.entries(hashes)) {
    nonemptyString(keyId, "policy.human_authorization key id");
    if (hasPyWhitespace(keyId)) fail("policy.human_authorization key ids must not contain whitespace");
    sha256(keyHash, `policy.human_authorization.key_hashes.${keyId}`);
  }
  return hashes as Record<string, string>;
}

/** A validated policy in v1 form (the portable form normalized), ready for evaluation. */
export interface NormalizedPolicy {
  schema_version: 1;
  policy_id: string;
  limits: Record<LimitName, number>;
  human_authorization: { key_hashes: Record<string, string> };
  /** Which form the source document had. */
  form: "v1" | "portable";
}

const PORTABLE_KEYS = ["version", "limits", "context", "terminal_states"];
const POLICY_KEYS = ["schema_version", "policy_id", "limits", "human_authorization"];
export const PORTABLE_POLICY_ID = "portable-harness-agent-budget-v1";

function normalizePortable(policy: Obj): NormalizedPolicy {
  exactKeys(policy, PORTABLE_KEYS, PORTABLE_KEYS, "portable policy");
  if (!isVersion(policy.version, 1)) fail("portable policy.version must be 1");
  const src = object(policy.limits, "portable policy.limits");
  exactKeys(src, PORTABLE_LIMIT_NAMES, PORTABLE_LIMIT_NAMES, "portable policy limit");
  const ctx = object(policy.context, "portable policy.context");
  exactKeys(ctx, PORTABLE_CONTEXT_NAMES, PORTABLE_CONTEXT_NAMES, "portable policy context");
  for (const [k, v] of Object.entries(src)) nonnegativeInteger(v, `portable policy.limits.${k}`);
  for (const [k, v] of Object.entries(ctx)) nonnegativeInteger(v, `portable policy.context.${k}`);
  const terminal = uniqueStrings(policy.terminal_states, "portable policy.terminal_states");
  if (terminal.length !== PORTABLE_TERMINAL_STATES.length || terminal.some((s, i) => s !== PORTABLE_TERMINAL_STATES[i])) {
    fail("portable policy.terminal_states must match the supported canonical v1 set");
  }
  const limits: Record<LimitName, number> = {
    max_cycles: src.max_plan_act_reflect_cycles as number,
    max_tool_calls: src.max_tool_calls as number,
    max_elapsed_seconds: src.max_wall_time_seconds as number,
    checkpoint_transcript_bytes: src.checkpoint_transcript_bytes as number,
    max_transcript_bytes: src.max_transcript_bytes as number,
    max_same_failure_retries: src.max_same_failure_retries as number,
    max_no_evidence_cycles: src.max_no_evidence_cycles as number,
    max_children_per_parent: src.max_children_per_parent as number,
    max_concurrency: src.max_concurrency as number,
    max_task_packet_tokens: ctx.task_packet_tokens as number,
    max_parent_summary_tokens: ctx.parent_summary_tokens as number,
    max_memory_digest_tokens: ctx.memory_digest_tokens as number,
    max_child_result_words: ctx.child_result_words as number,
  };
  limitValues(limits);
  return { schema_version: 1, policy_id: PORTABLE_POLICY_ID, limits, human_authorization: { key_hashes: {} }, form: "portable" };
}

/** Validates a policy v1 or portable v1 document; a goal policy (v2) has its own rules (goal-validate.ts). */
export function validatePolicy(document: unknown): NormalizedPolicy {
  const policy = object(document, "policy");
  if (isVersion(policy.schema_version, 2)) fail("expected a policy v1 or portable v1, not a goal policy (schema_version 2)");
  const keys = Object.keys(policy);
  if (keys.length === PORTABLE_KEYS.length && PORTABLE_KEYS.every((k) => has(policy, k))) return normalizePortable(policy);
  exactKeys(policy, POLICY_KEYS, POLICY_KEYS, "policy");
  if (!isVersion(policy.schema_version, 1)) fail("policy.schema_version must be 1");
  nonemptyString(policy.policy_id, "policy.policy_id");
  const limits = object(policy.limits, "policy.limits");
  exactKeys(limits, LIMIT_NAMES, LIMIT_NAMES, "policy limit");
  limitValues(limits);
  const keyHashes = humanAuthorization(policy.human_authorization);
  return { schema_version: 1, policy_id: policy.policy_id as string, limits: { ...(limits as Record<LimitName, number>) }, human_authorization: { key_hashes: { ...keyHashes } }, form: "v1" };
}

const CHECKPOINT_REQUIRED = [
  "schema_version",
  "task_id",
  "parent_id",
  "status",
  "cycle",
  "tool_calls",
  "elapsed_seconds",
  "transcript_bytes",
  "same_failure_retries",
  "no_evidence_cycles",
  "active_children",
  "evidence_refs",
  "decisions",
  "overrides",
  "stop_reason",
  "updated_at",
];
const CHECKPOINT_OPTIONAL = ["children_spawned", "last_checkpoint_transcript_bytes", "task_packet_tokens", "parent_summary_tokens", "memory_digest_tokens", "child_result_words", "pending_action_hash"];
const CHECKPOINT_KEYS = [...CHECKPOINT_REQUIRED, ...CHECKPOINT_OPTIONAL];

function humanActor(value: unknown, label: string): void {
  const actor = nonemptyString(value, `${label}.actor`);
  if (!actor.startsWith("human:") || actor.length === "human:".length || hasPyWhitespace(actor)) fail(`${label}.actor must use the human: namespace`);
}

function decisionRecord(value: unknown, index: number): void {
  const label = `checkpoint.decisions[${index}]`;
  const d = object(value, label);
  const keys = ["gate", "actor", "decision", "timestamp", "rationale", "affected_action_hash", "authorization"];
  exactKeys(d, keys, keys, label);
  nonemptyString(d.gate, `${label}.gate`);
  humanActor(d.actor, label);
  if (!["approve", "decline", "revise"].includes(d.decision as string)) fail(`${label}.decision must be approve, decline, or revise`);
  timestamp(d.timestamp, `${label}.timestamp`);
  nonemptyString(d.rationale, `${label}.rationale`);
  sha256(d.affected_action_hash, `${label}.affected_action_hash`);
  authorization(d.authorization, `${label}.authorization`);
}

function overrideRecord(value: unknown, index: number): void {
  const label = `checkpoint.overrides[${index}]`;
  const o = object(value, label);
  const keys = ["limit", "value", "reason", "actor", "timestamp", "affected_action_hash", "observed_value", "authorization"];
  exactKeys(o, keys, keys, label);
  if (!LIMIT_NAMES.includes(o.limit as LimitName)) fail(`${label}.limit is not a public policy limit`);
  nonnegativeInteger(o.value, `${label}.value`);
  nonnegativeNumber(o.observed_value, `${label}.observed_value`);
  nonemptyString(o.reason, `${label}.reason`);
  humanActor(o.actor, label);
  timestamp(o.timestamp, `${label}.timestamp`);
  sha256(o.affected_action_hash, `${label}.affected_action_hash`);
  authorization(o.authorization, `${label}.authorization`);
}

/** A human record inside a validated checkpoint (shape guaranteed by the validator). */
export interface CheckpointRecord extends Obj {
  actor: string;
  timestamp: string;
  affected_action_hash: string;
  authorization: { scheme: string; key_id: string; signature: string };
}
export interface CheckpointDecisionRecord extends CheckpointRecord {
  gate: string;
  decision: "approve" | "decline" | "revise";
}
export interface CheckpointOverrideRecord extends CheckpointRecord {
  limit: LimitName;
  value: number;
  observed_value: number | PyFloat;
}

/** A validated TaskCheckpoint v1 (the document itself, typed). */
export interface ValidCheckpoint extends Obj {
  schema_version: 1;
  task_id: string;
  status: (typeof CHECKPOINT_STATUSES)[number];
  elapsed_seconds: number | PyFloat;
  decisions: CheckpointDecisionRecord[];
  overrides: CheckpointOverrideRecord[];
  evidence_refs: string[];
}

/** Validates a TaskCheckpoint v1; a GoalCheckpoint (v2) has its own rules (goal-validate.ts). */
export function validateCheckpoint(document: unknown): ValidCheckpoint {
  const c = object(document, "checkpoint");
  if (isVersion(c.schema_version, 2)) fail("expected a TaskCheckpoint v1, not a GoalCheckpoint (schema_version 2)");
  exactKeys(c, CHECKPOINT_KEYS, CHECKPOINT_REQUIRED, "checkpoint");
  if (!isVersion(c.schema_version, 1)) fail("checkpoint.schema_version must be 1");
  nonemptyString(c.task_id, "checkpoint.task_id");
  if (c.parent_id !== null) nonemptyString(c.parent_id, "checkpoint.parent_id");
  if (!CHECKPOINT_STATUSES.includes(c.status as (typeof CHECKPOINT_STATUSES)[number])) fail(`invalid checkpoint.status: ${pyStr(c.status)}`);
  for (const key of ["cycle", "tool_calls", "transcript_bytes", "same_failure_retries", "no_evidence_cycles", "active_children"]) nonnegativeInteger(c[key], `checkpoint.${key}`);
  nonnegativeNumber(c.elapsed_seconds, "checkpoint.elapsed_seconds");
  for (const key of CHECKPOINT_OPTIONAL) {
    if (!has(c, key)) continue;
    if (key === "pending_action_hash") {
      if (c[key] !== null) sha256(c[key], "checkpoint.pending_action_hash");
    } else nonnegativeInteger(c[key], `checkpoint.${key}`);
  }
  uniqueStrings(c.evidence_refs, "checkpoint.evidence_refs");
  if (!Array.isArray(c.decisions)) fail("checkpoint.decisions must be an array");
  (c.decisions as unknown[]).forEach(decisionRecord);
  if (!Array.isArray(c.overrides)) fail("checkpoint.overrides must be an array");
  const seen = new Set<string>();
  (c.overrides as unknown[]).forEach((o, i) => {
    overrideRecord(o, i);
    const limit = (o as Obj).limit as string;
    if (seen.has(limit)) fail(`duplicate checkpoint override: ${limit}`);
    seen.add(limit);
  });
  const decisions = c.decisions as CheckpointDecisionRecord[];
  const overrides = c.overrides as CheckpointOverrideRecord[];
  if (decisions.length || overrides.length) {
    const pending = has(c, "pending_action_hash") ? c.pending_action_hash : null;
    if (pending === null) fail("checkpoint.pending_action_hash is required when decisions or overrides exist");
    decisions.forEach((d, i) => {
      if (d.affected_action_hash !== pending) fail(`checkpoint.decisions[${i}].affected_action_hash must match checkpoint.pending_action_hash`);
    });
    overrides.forEach((o, i) => {
      if (o.affected_action_hash !== pending) fail(`checkpoint.overrides[${i}].affected_action_hash must match checkpoint.pending_action_hash`);
    });
  }
  if (c.stop_reason !== null) nonemptyString(c.stop_reason, "checkpoint.stop_reason");
  timestamp(c.updated_at, "checkpoint.updated_at");
  return c as ValidCheckpoint;
}
