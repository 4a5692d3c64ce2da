/**
 * A GoalCheckpoint and its GoalDecision as the task page shows them: each goal total against its
 * goal limit, each slice counter against the cap where the slice ends, the active-context
 * metrics whose limits ask for compaction, the action limits, the review reserve, and the
 * latest signed decision of each human gate. Every row's state uses the evaluator's own
 * comparison (goal-evaluate.ts), and the flags that summarise the decision (pending compaction,
 * requires_human) are read from the decision itself, so the page never disagrees with it.
 */
import { PyFloat } from "../memory/canonical-json";
import { parseTimestamp } from "../memory/timestamp";
import { CONTEXT_METRICS, HARD_METRICS } from "./evaluate-v1";
import type { AnyDecision } from "./evaluate";
import { CONTEXT_COMPACTION_REQUIRED, SLICE_BOUNDARIES, reviewReserve } from "./goal-evaluate";
import { GOAL_TOTALS, type GoalTotalName, type ValidGoalCheckpoint, type ValidGoalPolicy, totalValue } from "./goal-validate";
import type { LimitName } from "./schemas";

export interface GoalTotalRow {
  name: GoalTotalName;
  /** The goal's total so far; null when unknown (usage the host could not measure). */
  total: number | null;
  /** The goal policy's lifetime limit on it; null when it has none. */
  limit: number | null;
  /** no_limit: not budgeted; under: below it; reached: at or past it (stops the goal); unknown: the total is null under a limit (stops the goal). */
  state: "no_limit" | "under" | "reached" | "unknown";
}

export interface SliceRow {
  counter: (typeof SLICE_BOUNDARIES)[number][0];
  /** This slice's count. */
  value: number;
  limit: LimitName;
  max: number | null;
  /** The slice ends here (value >= its effective limit). */
  reached: boolean;
}

export interface ActionRow {
  metric: string;
  value: number;
  limit: LimitName;
  max: number | null;
  /** Context metrics ask for compaction; the others stop the action. */
  kind: "context" | "action";
  reached: boolean;
}

export interface GateRow {
  gate: string;
  /** The winning (latest) signed decision of the gate. */
  decision: "approve" | "decline" | "revise";
  actor: string;
  timestamp: string;
  rationale: string;
  /** How many decisions the task holds for this gate. */
  records: number;
}

export interface GoalView {
  goalId: string;
  sliceId: number;
  actionKind: ValidGoalCheckpoint["action_kind"];
  nextStep: string;
  requiresHuman: boolean;
  reviewRequired: boolean;
  /** The decision asks for compaction before the next action (context_compaction_required). */
  pendingCompaction: boolean;
  totals: GoalTotalRow[];
  slice: SliceRow[];
  action: ActionRow[];
  reserve: {
    /** The policy's reviewer_reserve (null without a goal policy). */
    policyReserve: number | null;
    /** Slots held back now: the reserve while a review is required and this action is not the review, else 0. */
    inEffect: number;
    childrenSpawned: number;
    maxChildren: number | null;
    /** Children an executor may still spawn in this slice. */
    executorRoom: number | null;
  };
  /** Task evidence not accepted at an earlier slice transition (what can carry a slice forward). */
  freshEvidence: string[];
  acceptedEvidence: string[];
  gates: GateRow[];
  /** The action the gate decisions bind to (task.pending_action_hash). */
  pendingActionHash: string | null;
}

const plain = (v: unknown): number | null => (typeof v === "number" ? v : v instanceof PyFloat ? v.value : null);

/** The latest decision per gate (gates in order of first appearance), as the evaluator picks it. */
export function latestGateDecisions(task: ValidGoalCheckpoint["task"]): GateRow[] {
  const latest = new Map<string, { record: ValidGoalCheckpoint["task"]["decisions"][number]; at: bigint; records: number }>();
  for (const d of task.decisions) {
    const p = parseTimestamp(d.timestamp);
    const at = p.ok ? p.epochMicros : -1n;
    const current = latest.get(d.gate);
    if (!current) latest.set(d.gate, { record: d, at, records: 1 });
    else {
      current.records += 1;
      if (at > current.at) Object.assign(current, { record: d, at });
    }
  }
  return [...latest.entries()].map(([gate, { record, records }]) => ({ gate, decision: record.decision, actor: record.actor, timestamp: record.timestamp, rationale: String(record.rationale ?? ""), records }));
}

export function goalView(state: ValidGoalCheckpoint, policy: ValidGoalPolicy | null, decision: AnyDecision): GoalView {
  // Limits as the decision applied them (overrides included); a failed evaluation has none, so the base limits stand in.
  const limits: Record<string, number> = Object.keys(decision.effective_limits).length ? decision.effective_limits : ((policy?.base.limits as Record<string, number> | undefined) ?? {});
  const max = (l: LimitName) => (typeof limits[l] === "number" ? limits[l]! : null);
  const task = state.task as Record<string, unknown>;
  const count = (k: string) => plain(task[k]) ?? 0;

  const totals: GoalTotalRow[] = GOAL_TOTALS.map((name) => {
    const total = totalValue(state.totals[name]);
    const raw = policy?.goal_limits[name];
    const limit = raw === undefined ? null : totalValue(raw);
    const s: GoalTotalRow["state"] = limit === null ? "no_limit" : total === null ? "unknown" : total >= limit ? "reached" : "under";
    return { name, total, limit, state: s };
  });
  const slice: SliceRow[] = SLICE_BOUNDARIES.map(([counter, limit]) => {
    const value = count(counter);
    const m = max(limit);
    return { counter, value, limit, max: m, reached: m !== null && value >= m };
  });
  const sliceCounters = new Set<string>(SLICE_BOUNDARIES.map(([c]) => c));
  const action: ActionRow[] = HARD_METRICS.filter(([metric]) => !sliceCounters.has(metric)).map(([metric, limit]): ActionRow => {
    const value = count(metric);
    const m = max(limit);
    return { metric, value, limit, max: m, kind: (CONTEXT_METRICS as readonly string[]).includes(metric) ? "context" : "action", reached: m !== null && value >= m };
  });
  const activeMax = max("max_concurrency");
  action.push({ metric: "active_children", value: count("active_children"), limit: "max_concurrency", max: activeMax, kind: "action", reached: activeMax !== null && count("active_children") > activeMax });

  const inEffect = policy ? reviewReserve(state, policy) : 0;
  const maxChildren = max("max_children_per_parent");
  const childrenSpawned = count("children_spawned");
  const accepted = new Set(state.accepted_evidence);
  return {
    goalId: state.goal_id,
    sliceId: state.slice_id,
    actionKind: state.action_kind,
    nextStep: state.next_step,
    requiresHuman: state.requires_human,
    reviewRequired: state.review_required,
    pendingCompaction: decision.reasons.includes(CONTEXT_COMPACTION_REQUIRED),
    totals,
    slice,
    action,
    reserve: {
      policyReserve: policy?.reviewer_reserve ?? null,
      inEffect,
      childrenSpawned,
      maxChildren,
      executorRoom: maxChildren === null ? null : Math.max(0, maxChildren - inEffect - childrenSpawned),
    },
    freshEvidence: state.task.evidence_refs.filter((r) => !accepted.has(r)),
    acceptedEvidence: state.accepted_evidence,
    gates: latestGateDecisions(state.task),
    pendingActionHash: typeof task.pending_action_hash === "string" ? task.pending_action_hash : null,
  };
}
