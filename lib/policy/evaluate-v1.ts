/**
 * `evaluate_policy` of the agent-collab harness (FORMATS §4), reproduced exactly: the same
 * decision, reasons (same wording, same fixed order), effective limits, observed metrics and
 * policy hash for the same two documents.
 *
 * Order of work, as in the reference: validate the checkpoint, then the policy; verify every
 * decision's and then every override's HMAC; apply overrides to the limits (refusing late,
 * inconsistent or lowering ones); then collect reasons: task status, human gates (latest
 * decision per gate by timestamp, a tie is an error), hard limits reached, child counts
 * exceeded. Any reason means stop; otherwise transcript growth past the checkpoint threshold
 * means checkpoint (the only reason then). Spawning needs continue and room under both child
 * limits. Any failure along the way gives the fail-closed stop with `evaluation_error:<reason>`.
 */
import { type PyFloat, canonicalSha256, pyNumberStr } from "../memory/canonical-json";
import { verifyRecord } from "../memory/decision-record";
import type { HumanKeys } from "../memory/keys";
import { parseTimestamp } from "../memory/timestamp";
import { checkpointDue, childLimitBlocksSpawn, childLimitExceeded, hardLimitReached, transcriptGrowth } from "./limit-rules";
import type { LimitName } from "./schemas";
import { type CheckpointDecisionRecord, type NormalizedPolicy, PolicyValidationError, type ValidCheckpoint, validateCheckpoint, validatePolicy } from "./validate";

export type MetricName =
  | "cycle"
  | "tool_calls"
  | "elapsed_seconds"
  | "transcript_bytes"
  | "same_failure_retries"
  | "no_evidence_cycles"
  | "children_spawned"
  | "active_children"
  | "task_packet_tokens"
  | "parent_summary_tokens"
  | "memory_digest_tokens"
  | "child_result_words"
  | "last_checkpoint_transcript_bytes";

/** Metrics that stop the task once they reach their limit, in the order their reasons appear. */
export const HARD_METRICS: readonly (readonly [MetricName, LimitName])[] = [
  ["cycle", "max_cycles"],
  ["tool_calls", "max_tool_calls"],
  ["elapsed_seconds", "max_elapsed_seconds"],
  ["transcript_bytes", "max_transcript_bytes"],
  ["same_failure_retries", "max_same_failure_retries"],
  ["no_evidence_cycles", "max_no_evidence_cycles"],
  ["task_packet_tokens", "max_task_packet_tokens"],
  ["parent_summary_tokens", "max_parent_summary_tokens"],
  ["memory_digest_tokens", "max_memory_digest_tokens"],
  ["child_result_words", "max_child_result_words"],
];

/** The metric an override's observed_value is compared with. */
const LIMIT_METRIC: Record<LimitName, MetricName> = {
  ...(Object.fromEntries(HARD_METRICS.map(([m, l]) => [l, m])) as Record<LimitName, MetricName>),
  checkpoint_transcript_bytes: "transcript_bytes",
  max_children_per_parent: "children_spawned",
  max_concurrency: "active_children",
};

/** Metrics that bound the active context rather than lifetime usage (compaction may shrink them). */
export const CONTEXT_METRICS: readonly MetricName[] = ["transcript_bytes", "task_packet_tokens", "parent_summary_tokens", "memory_digest_tokens", "child_result_words"];

/** Every status but running stops: terminal ones and the paused waiting_for_human. */
export const TERMINAL_OR_PAUSED_STATUSES = ["waiting_for_human", "completed", "blocked", "budget_exhausted", "error", "cancelled", "declined", "timed_out"];

export type ObservedMetrics = Record<MetricName, number | PyFloat>;

export interface PolicyDecision {
  schema_version: 1;
  policy_id: string;
  policy_hash: string | null;
  decision: "continue" | "checkpoint" | "stop";
  spawn_allowed: boolean;
  checkpoint_required: boolean;
  reasons: string[];
  /** Policy limits with accepted overrides, in the policy file's key order; {} when evaluation failed. */
  effective_limits: Record<string, number>;
  /** The metrics in the fixed order above (a float read as `1.0` stays a PyFloat); {} when evaluation failed. */
  observed_metrics: Partial<ObservedMetrics>;
}

export const num = (v: number | PyFloat): number => (typeof v === "number" ? v : v.value);

export function observedMetrics(c: ValidCheckpoint): ObservedMetrics {
  const get = (k: string) => (Object.prototype.hasOwnProperty.call(c, k) ? (c[k] as number) : 0);
  return {
    cycle: c.cycle as number,
    tool_calls: c.tool_calls as number,
    elapsed_seconds: c.elapsed_seconds,
    transcript_bytes: c.transcript_bytes as number,
    same_failure_retries: c.same_failure_retries as number,
    no_evidence_cycles: c.no_evidence_cycles as number,
    children_spawned: get("children_spawned"),
    active_children: c.active_children as number,
    task_packet_tokens: get("task_packet_tokens"),
    parent_summary_tokens: get("parent_summary_tokens"),
    memory_digest_tokens: get("memory_digest_tokens"),
    child_result_words: get("child_result_words"),
    last_checkpoint_transcript_bytes: get("last_checkpoint_transcript_bytes"),
  };
}

/**
 * The policy's limits with each signed override applied, refusing a late, inconsistent or lowering
 * one. `contextCanShrink` (goal evaluation only): an override's observed value may exceed a context
 * metric now, since compaction may have shrunk the active context after the human authorized it.
 */
export function effectiveLimits(c: ValidCheckpoint, policy: NormalizedPolicy, metrics: ObservedMetrics, opts: { contextCanShrink?: boolean } = {}): Record<string, number> {
  const limits: Record<string, number> = { ...policy.limits };
  for (const o of c.overrides) {
    const limit = o.limit;
    const observed = num(o.observed_value);
    const metricName = LIMIT_METRIC[limit];
    const metric = metrics[metricName];
    if (observed >= limits[limit]!) {
      throw new PolicyValidationError(`checkpoint override for ${limit} was not authorized before exhaustion: observed_value=${pyNumberStr(o.observed_value)} >= ${limits[limit]}`);
    }
    if (observed > num(metric) && !(opts.contextCanShrink && CONTEXT_METRICS.includes(metricName))) {
      throw new PolicyValidationError(`checkpoint override observed_value for ${limit} exceeds current ${metricName}: ${pyNumberStr(o.observed_value)} > ${pyNumberStr(metric)}`);
    }
    if (o.value < limits[limit]!) throw new PolicyValidationError(`checkpoint override cannot lower ${limit}: ${o.value} < ${limits[limit]}`);
    limits[limit] = o.value;
  }
  return limits;
}

function decisionTime(d: CheckpointDecisionRecord): bigint {
  const p = parseTimestamp(d.timestamp);
  if (!p.ok) throw new PolicyValidationError(`checkpoint decision timestamp cannot be read: ${d.timestamp}`);
  return p.epochMicros;
}

/** `_verify_authorizations`: every decision's, then every override's signature, the first failure thrown. */
export function verifyHumanRecords(checkpoint: ValidCheckpoint, policy: NormalizedPolicy, keys: HumanKeys | undefined): void {
  const verify = (record: unknown, label: string) => {
    const v = verifyRecord(record, policy, keys, { label });
    if (!v.ok) throw new PolicyValidationError(v.failures[0]!.message);
  };
  checkpoint.decisions.forEach((d, i) => verify(d, `checkpoint.decisions[${i}]`));
  checkpoint.overrides.forEach((o, i) => verify(o, `checkpoint.overrides[${i}]`));
}

/**
 * The harness's `evaluate_policy` for a TaskCheckpoint v1 under a v1 (or portable) policy: throws
 * PolicyValidationError (or another error) instead of failing closed.
 */
export function evaluateTaskV1Strict(checkpointDocument: unknown, policyDocument: unknown, keys: HumanKeys | undefined): PolicyDecision {
  const checkpoint = validateCheckpoint(checkpointDocument);
  const policy = validatePolicy(policyDocument);
  const metrics = observedMetrics(checkpoint);
  verifyHumanRecords(checkpoint, policy, keys);
  const limits = effectiveLimits(checkpoint, policy, metrics);
  const reasons: string[] = [];

  if (TERMINAL_OR_PAUSED_STATUSES.includes(checkpoint.status)) reasons.push(`task_status:${checkpoint.status}`);

  // Latest decision per gate by signed timestamp (not array position); gates keep first-seen order.
  const latest = new Map<string, CheckpointDecisionRecord>();
  for (const d of checkpoint.decisions) {
    const current = latest.get(d.gate);
    if (current === undefined || decisionTime(d) > decisionTime(current)) latest.set(d.gate, d);
    else if (decisionTime(d) === decisionTime(current)) {
      throw new PolicyValidationError(`checkpoint has ambiguous human decisions for gate ${d.gate} at ${d.timestamp}`);
    }
  }
  for (const [gate, d] of latest) {
    if (d.decision === "decline" || d.decision === "revise") reasons.push(`human_gate:${gate}:${d.decision}`);
  }

  for (const [metric, limitName] of HARD_METRICS) {
    const observed = metrics[metric];
    const limit = limits[limitName]!;
    if (hardLimitReached(num(observed), limit)) reasons.push(`limit_reached:${metric}=${pyNumberStr(observed)}:${limitName}=${limit}`);
  }

  const childrenSpawned = num(metrics.children_spawned);
  const activeChildren = num(metrics.active_children);
  if (childLimitExceeded(childrenSpawned, limits.max_children_per_parent!)) {
    reasons.push(`limit_exceeded:children_spawned=${childrenSpawned}:max_children_per_parent=${limits.max_children_per_parent}`);
  }
  if (childLimitExceeded(activeChildren, limits.max_concurrency!)) {
    reasons.push(`limit_exceeded:active_children=${activeChildren}:max_concurrency=${limits.max_concurrency}`);
  }

  let decision: PolicyDecision["decision"] = reasons.length > 0 ? "stop" : "continue";
  let checkpointRequired = false;
  if (decision === "continue") {
    const growth = transcriptGrowth(num(metrics.transcript_bytes), num(metrics.last_checkpoint_transcript_bytes));
    if (checkpointDue(growth, limits.checkpoint_transcript_bytes!)) {
      decision = "checkpoint";
      checkpointRequired = true;
      reasons.push(`checkpoint_required:transcript_growth=${growth}:checkpoint_transcript_bytes=${limits.checkpoint_transcript_bytes}`);
    }
  }
  const spawnAllowed = decision === "continue" && !childLimitBlocksSpawn(childrenSpawned, limits.max_children_per_parent!) && !childLimitBlocksSpawn(activeChildren, limits.max_concurrency!);

  return {
    schema_version: 1,
    policy_id: policy.policy_id,
    policy_hash: canonicalSha256(policyDocument),
    decision,
    spawn_allowed: spawnAllowed,
    checkpoint_required: checkpointRequired,
    reasons,
    effective_limits: limits,
    observed_metrics: metrics,
  };
}
