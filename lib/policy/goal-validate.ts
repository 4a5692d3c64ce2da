/**
 * The harness's validators for goal documents (GOAL-POLICY §3, §4): GoalPolicy and
 * GoalCheckpoint, `schema_version` 2. As with v1 (validate.ts), the first failure is the
 * output (`evaluation_error:<message>`), so the order of the checks and their wording are
 * reproduced exactly, including Python's equality where the reference compares values with
 * `==` (`1.0 == 1`, `True == 1` for a history slice id).
 *
 * Deliberate differences, each failing closed: an integer past 2^53 is refused (JavaScript
 * numbers cannot carry it exactly); `true` is not accepted where a `schema_version` of 1 is
 * required (as in validate.ts); a NaN or Infinity inside a history event, which crashes the
 * reference while it hashes the event, is a validation failure here.
 */
import { PyFloat, canonicalSha256, compareCodePoints } from "../memory/canonical-json";
import { type NormalizedPolicy, PolicyValidationError, type ValidCheckpoint, pyStrip, validateCheckpoint, validatePolicy } from "./validate";

/** Slice counters: reset at each slice, accumulated into the goal totals. */
export const GOAL_COUNTERS = ["cycle", "tool_calls", "elapsed_seconds", "children_spawned"] as const;
/** Model usage of a slice; null when the host does not know it. */
export const GOAL_USAGE = ["input_tokens", "cached_input_tokens", "output_tokens", "cost_microusd"] as const;
/** The eight cumulative totals, in the reference's order (goal limits may name any of them). */
export const GOAL_TOTALS = [...GOAL_COUNTERS, ...GOAL_USAGE] as const;
export type GoalTotalName = (typeof GOAL_TOTALS)[number];
export const ACTION_KINDS = ["execute", "diagnose", "review", "wait"] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

const GOAL_POLICY_FIELDS = ["schema_version", "policy_id", "base_policy", "goal_limits", "reviewer_reserve"];
const GOAL_CHECKPOINT_FIELDS = [
  "schema_version",
  "task_id",
  "goal_id",
  "slice_id",
  "task",
  "totals",
  "baseline",
  "usage",
  "accepted_evidence",
  "history",
  "next_step",
  "action_kind",
  "review_required",
  "requires_human",
  "source_sha256",
  "failure_history",
  "active_failure",
];
const HISTORY_EVENT_FIELDS = ["slice_id", "request_id", "previous_sha256", "sha256", "totals", "task_sha256", "evidence_refs"];
const FAILURE_FIELDS = ["identity", "input_sha256", "error_class", "attempts", "evidence_ref", "observed_evidence"];

type Obj = Record<string, unknown>;
/** A total as read: an int, a float (PyFloat when written integral), or null for unknown usage. */
export type GoalNumber = number | PyFloat;
export type GoalTotals = Record<GoalTotalName, GoalNumber | null>;

function fail(message: string): never {
  throw new PolicyValidationError(message);
}

const isObject = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof PyFloat);
const has = (o: Obj, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** Python's `str(sorted(names))`: `['a', 'b']`. */
function pyList(names: readonly string[]): string {
  return `[${[...names]
    .sort(compareCodePoints)
    .map((n) => `'${n}'`)
    .join(", ")}]`;
}

/** `_object`: an object whose key set is exactly `keys`. */
function expectFields(value: unknown, keys: readonly string[], label: string): asserts value is Obj {
  const ok = isObject(value) && Object.keys(value).length === keys.length && keys.every((k) => has(value, k));
  if (!ok) fail(`${label}: expected fields ${pyList(keys)}`);
}

const TOO_LARGE = (label: string) => `${label}: integers above 2^53 are not supported`;

/** `_number`: a non-negative int (bools refused); `elapsed_seconds` may also be a finite float; usage may be null. */
function goalNumber(value: unknown, label: string, nullable = false): void {
  if (nullable && value === null) return;
  if (typeof value === "bigint" && value >= 0n) fail(TOO_LARGE(label));
  if (label === "elapsed_seconds") {
    const n = value instanceof PyFloat ? value.value : typeof value === "number" ? value : NaN;
    if (n >= 0 && Number.isFinite(n)) {
      if (typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value)) fail(TOO_LARGE(label));
      return;
    }
  }
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) fail(`${label}: expected nonnegative integer`);
  if (!Number.isSafeInteger(value)) fail(TOO_LARGE(label));
}

/** `_text`: a string, non-blank unless `empty` is allowed. */
function text(value: unknown, label: string, empty = false): asserts value is string {
  if (typeof value !== "string" || (!empty && !pyStrip(value))) fail(`${label}: expected text`);
}

const isHash = (v: unknown): v is string => typeof v === "string" && /^[0-9a-f]{64}$/.test(v);

function hash(value: unknown, label: string): asserts value is string {
  if (!isHash(value)) fail(`${label}: expected SHA-256`);
}

/** Python `==` of a JSON value with 1 (for schema_version; `true` refused, see the header). */
const isOne = (v: unknown) => v === 1 || (v instanceof PyFloat && v.value === 1);
/** Python `==` of a JSON value with an int, as the history check compares slice ids (`True == 1`). */
function pyEqualsInt(v: unknown, n: number): boolean {
  if (typeof v === "boolean") return Number(v) === n;
  if (typeof v === "number") return v === n;
  if (v instanceof PyFloat) return v.value === n;
  return false;
}

/** The numeric value of a validated total, or null. */
export function totalValue(v: GoalNumber | null | undefined): number | null {
  return v === null || v === undefined ? null : v instanceof PyFloat ? v.value : v;
}

/** Python `==` between two validated totals objects (same key set; ints and floats compare by value). */
function sameTotals(a: Obj, b: Obj): boolean {
  return Object.keys(a).every((k) => totalValue(a[k] as GoalNumber | null) === totalValue(b[k] as GoalNumber | null));
}

/** A validated GoalPolicy: the document as read plus its base policy in v1 form. */
export interface ValidGoalPolicy {
  schema_version: 2;
  policy_id: string;
  /** The embedded public v1 policy, normalized: its limits and pinned human key hashes. */
  base: NormalizedPolicy;
  /** The base policy as it stands in the document. */
  baseDocument: Obj;
  /** Lifetime budgets over the totals, in the document's key order. */
  goal_limits: Partial<Record<GoalTotalName, GoalNumber>>;
  reviewer_reserve: number;
  /** The whole document as read (what `policy_hash` is taken over). */
  document: Obj;
}

/** `validate_goal_policy` (GOAL-POLICY §3), check for check. */
export function validateGoalPolicy(document: unknown): ValidGoalPolicy {
  expectFields(document, GOAL_POLICY_FIELDS, "goal policy");
  if (document.schema_version !== 2) fail("expected policy v2");
  text(document.policy_id, "policy_id");
  const basePolicy = document.base_policy;
  if (!isObject(basePolicy) || !isOne(basePolicy.schema_version)) fail("base_policy must be public v1");
  const base = validatePolicy(basePolicy);
  const limits = document.goal_limits;
  if (!isObject(limits) || !Object.keys(limits).every((k) => (GOAL_TOTALS as readonly string[]).includes(k))) fail("unknown goal limit");
  for (const [k, v] of Object.entries(limits as Obj)) goalNumber(v, k);
  goalNumber(document.reviewer_reserve, "reviewer_reserve");
  const reserve = document.reviewer_reserve as number;
  if (reserve >= base.limits.max_children_per_parent) fail("review reserve must leave an executor slot");
  return {
    schema_version: 2,
    policy_id: document.policy_id as string,
    base,
    baseDocument: basePolicy as Obj,
    goal_limits: limits as ValidGoalPolicy["goal_limits"],
    reviewer_reserve: reserve,
    document,
  };
}

export interface GoalHistoryEvent {
  slice_id: number;
  request_id: string;
  previous_sha256: string | null;
  sha256: string;
  totals: GoalTotals;
  task_sha256: string;
  evidence_refs: string[];
}

export interface GoalFailureRecord {
  identity: string;
  input_sha256: string;
  error_class: string;
  attempts: number;
  evidence_ref: string;
  observed_evidence: string[];
}

/** A validated GoalCheckpoint: the document itself, typed (numbers as read). */
export interface ValidGoalCheckpoint extends Obj {
  schema_version: 2;
  task_id: string;
  goal_id: string;
  slice_id: number;
  task: ValidCheckpoint;
  totals: GoalTotals;
  baseline: GoalTotals;
  usage: Record<(typeof GOAL_USAGE)[number], GoalNumber | null>;
  accepted_evidence: string[];
  history: GoalHistoryEvent[];
  next_step: string;
  action_kind: ActionKind;
  review_required: boolean;
  requires_human: boolean;
  source_sha256: string;
  failure_history: GoalFailureRecord[];
  active_failure: string | null;
}

/** `refresh_totals`: baseline plus the current slice (task counters, usage); null on either side gives null. */
export function expectedTotals(document: { task: Obj; baseline: Obj; usage: Obj }): Record<GoalTotalName, number | null> {
  const out = {} as Record<GoalTotalName, number | null>;
  for (const key of GOAL_TOTALS) {
    const slice = (GOAL_COUNTERS as readonly string[]).includes(key) ? (has(document.task, key) ? document.task[key] : 0) : document.usage[key];
    const before = document.baseline[key];
    const a = totalValue(slice as GoalNumber | null);
    const b = totalValue(before as GoalNumber | null);
    out[key] = a === null || b === null ? null : a + b;
  }
  return out;
}

function stringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((ref) => typeof ref === "string" && pyStrip(ref) !== "");
}

/** The id of a failure record: the hash of (identity, input, error class). */
export function failureId(f: Pick<GoalFailureRecord, "identity" | "input_sha256" | "error_class">): string {
  return canonicalSha256([f.identity, f.input_sha256, f.error_class]);
}

function validateHistory(document: Obj): void {
  const history = document.history as unknown[];
  let previous: string | null = null;
  const requests = new Set<string>();
  history.forEach((event, index) => {
    expectFields(event, HISTORY_EVENT_FIELDS, "history event");
    if (!pyEqualsInt(event.slice_id, index) || event.previous_sha256 !== previous) fail("history sequence or chain mismatch");
    goalNumber(event.slice_id, "history slice_id");
    text(event.request_id, "request_id");
    hash(event.task_sha256, "history task hash");
    if (!stringList(event.evidence_refs)) fail("invalid history evidence");
    if (requests.has(event.request_id as string)) fail("duplicate advance request");
    requests.add(event.request_id as string);
    const payload: Obj = {};
    for (const [k, v] of Object.entries(event)) if (k !== "sha256") Object.defineProperty(payload, k, { value: v, enumerable: true, writable: true, configurable: true });
    let digest: string;
    try {
      digest = canonicalSha256(payload);
    } catch (e) {
      // The reference crashes here (a NaN total, a lone surrogate); failing closed names why.
      return fail(`history event ${index} cannot be hashed: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (event.sha256 !== digest) fail("history hash mismatch");
    expectFields(event.totals, GOAL_TOTALS, "history totals");
    for (const [k, v] of Object.entries(event.totals)) goalNumber(v, k, (GOAL_USAGE as readonly string[]).includes(k));
    if (index > 0) {
      const priorTotals = (history[index - 1] as Obj).totals as Obj;
      for (const [k, v] of Object.entries(event.totals)) {
        const prior = totalValue(priorTotals[k] as GoalNumber | null);
        const now = totalValue(v as GoalNumber | null);
        // As the reference reads: a known total after an unknown one, or a smaller one, is a regression.
        if ((prior === null && now !== null) || (prior !== null && now !== null && now < prior)) fail("history totals regressed");
      }
    }
    previous = event.sha256 as string;
  });
}

function validateFailures(document: Obj): void {
  const active = document.active_failure;
  if (active !== null) hash(active, "active_failure");
  const ids = new Set<string>();
  for (const failure of document.failure_history as unknown[]) {
    expectFields(failure, FAILURE_FIELDS, "failure");
    for (const key of ["identity", "input_sha256", "error_class", "evidence_ref"]) text(failure[key], key);
    hash(failure.identity, "failure identity");
    hash(failure.input_sha256, "failure input");
    goalNumber(failure.attempts, "attempts");
    if (!stringList(failure.observed_evidence)) fail("invalid failure observed_evidence");
    const id = failureId(failure as unknown as GoalFailureRecord);
    if (ids.has(id)) fail("duplicate failure identity");
    ids.add(id);
    const retries = (document.task as Obj).same_failure_retries as number;
    if (id === active && retries < (failure.attempts as number) - 1) fail("retry counter regressed from failure history");
  }
  if (active !== null && !ids.has(active as string)) fail("active failure missing from history");
}

/** `validate_goal_checkpoint` (GOAL-POLICY §4), check for check. */
export function validateGoalCheckpoint(document: unknown): ValidGoalCheckpoint {
  expectFields(document, GOAL_CHECKPOINT_FIELDS, "goal checkpoint");
  if (document.schema_version !== 2) fail("expected checkpoint v2");
  for (const key of ["task_id", "goal_id", "next_step", "source_sha256"]) text(document[key], key, key === "next_step");
  if (!isHash(document.source_sha256)) fail("invalid source hash");
  const task = document.task;
  if (!isObject(task) || !isOne(task.schema_version)) fail("task must be public v1");
  validateCheckpoint(task);
  if (document.task_id !== (task as Obj).task_id) fail("task_id mismatch");
  for (const key of ["review_required", "requires_human"]) if (typeof document[key] !== "boolean") fail(`${key}: expected boolean`);
  if (!(ACTION_KINDS as readonly unknown[]).includes(document.action_kind)) fail("unknown action kind");
  goalNumber(document.slice_id, "slice_id");
  for (const [field, keys] of [
    ["totals", GOAL_TOTALS],
    ["baseline", GOAL_TOTALS],
    ["usage", GOAL_USAGE],
  ] as const) {
    const value = document[field];
    expectFields(value, keys, field);
    for (const [k, v] of Object.entries(value)) goalNumber(v, k, (GOAL_USAGE as readonly string[]).includes(k));
  }
  const expected = expectedTotals(document as { task: Obj; baseline: Obj; usage: Obj });
  if (!GOAL_TOTALS.every((k) => totalValue((document.totals as Obj)[k] as GoalNumber | null) === expected[k])) fail("totals must equal baseline plus slice");
  for (const field of ["accepted_evidence", "history", "failure_history"]) if (!Array.isArray(document[field])) fail(`${field}: expected list`);
  const accepted = document.accepted_evidence as unknown[];
  if (!stringList(accepted)) fail("invalid accepted evidence");
  if (new Set(accepted).size !== accepted.length) fail("duplicate accepted evidence");
  validateHistory(document);
  const history = document.history as GoalHistoryEvent[];
  if (history.length !== document.slice_id) fail("slice id does not match history");
  const zeros = Object.fromEntries(GOAL_TOTALS.map((k) => [k, 0]));
  if (!sameTotals(document.baseline as Obj, history.length ? (history[history.length - 1]!.totals as Obj) : zeros)) fail("baseline differs from history");
  const receipts = new Set(history.flatMap((e) => e.evidence_refs));
  const acceptedSet = new Set(accepted as string[]);
  if (acceptedSet.size !== receipts.size || [...receipts].some((r) => !acceptedSet.has(r))) fail("accepted evidence differs from transition receipts");
  validateFailures(document);
  return document as ValidGoalCheckpoint;
}

/** True for a JSON object whose schema_version equals 2 (Python `==`: `2.0` included), which selects the goal rules. */
export function isGoalDocument(doc: unknown): boolean {
  if (!isObject(doc)) return false;
  const v = doc.schema_version;
  return v === 2 || (v instanceof PyFloat && v.value === 2);
}
