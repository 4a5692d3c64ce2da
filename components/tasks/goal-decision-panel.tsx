import type { ReactNode } from "react";
import { DataTable } from "@/components/ui/data-table";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { Time } from "@/components/ui/time";
import type { TaskEvaluation } from "@/lib/memory/desk";
import type { GoalView } from "@/lib/policy/goal-view";
import { GateDecisionForm } from "./gate-decision-form";
import { ReasonList } from "./reason-list";

const DECISION_TONE = { continue: "ok", checkpoint: "warn", stop: "danger" } as const;
const SCOPE_WORDS = {
  action: "this action only: the goal goes on once it is dealt with",
  slice: "this slice ends; the goal continues in the next slice",
  goal: "the whole goal stops until a human or the host acts",
} as const;
const TOTAL_STATE = {
  no_limit: { tone: "neutral", label: "no goal limit" },
  under: { tone: "ok", label: "under its goal limit" },
  reached: { tone: "danger", label: "goal limit reached: the goal stops" },
  unknown: { tone: "danger", label: "unknown under a goal limit: the goal stops" },
} as const;

export interface GateSigning {
  signers: string[];
  cannotSign: string | null;
}

const show = (v: number | null | undefined, none = "—") => (v === null || v === undefined ? none : String(v));

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-fg-muted">{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** A GoalCheckpoint v2's GoalDecision, with every part of it that the goal layer weighs. */
/** Tables sit flush inside their card. */
const IN_CARD = "rounded-none border-0 bg-transparent";

export function GoalDecisionPanel({ projectId, task, goal, signing }: { projectId: string; task: TaskEvaluation; goal: GoalView; signing: GateSigning }) {
  const o = task.outcome;
  return (
    <div className="space-y-6" aria-label="Goal decision panel">
      <Card>
        <CardHeader
          title={
            <span className="flex flex-wrap items-center gap-2">
              Goal decision <Badge tone={DECISION_TONE[o.decision]}>{o.decision}</Badge>
              {o.scope ? <Badge tone={o.scope === "goal" ? "danger" : o.scope === "slice" ? "warn" : "neutral"}>scope: {o.scope}</Badge> : null}
              {o.auto_continue !== null ? <Badge tone={o.auto_continue ? "ok" : "neutral"}>{o.auto_continue ? "auto-continue" : "no auto-continue"}</Badge> : null}
              <Badge tone={o.spawn_allowed ? "ok" : "neutral"}>{o.spawn_allowed ? "may spawn children" : "no spawning"}</Badge>
              {o.checkpoint_required ? <Badge tone="warn">checkpoint required</Badge> : null}
            </span>
          }
          description={`policy ${o.policy_id}${o.policy_hash ? ` · hash ${o.policy_hash.slice(0, 12)}…` : ""} · exit ${task.exitCode} · ${o.scope ? `${o.scope}: ${SCOPE_WORDS[o.scope]}` : "not a GoalDecision: the fail-closed stop"}`}
        />
        <ReasonList reasons={task.reasons} none="No reason: nothing stops or checkpoints this action." />
        <dl className="grid grid-cols-[12rem_1fr] gap-x-3 gap-y-1 border-t border-border px-4 py-3 text-xs" aria-label="Goal state">
          <Fact label="goal">
            <span className="font-mono">{goal.goalId}</span>, slice {goal.sliceId} ({goal.sliceId} finished before this one)
          </Fact>
          <Fact label="action kind">{goal.actionKind}</Fact>
          <Fact label="next step">{goal.nextStep ? goal.nextStep : <span className="text-fg-muted">none (empty)</span>}</Fact>
          <Fact label="pending compaction">{goal.pendingCompaction ? <Badge tone="warn">yes: compact the active context before the next action</Badge> : <span>no</span>}</Fact>
          <Fact label="requires human">{goal.requiresHuman ? <Badge tone="danger">yes: the host marked this goal for a human; a signed approval does not clear it</Badge> : <span>no</span>}</Fact>
          <Fact label="fresh evidence">
            {goal.freshEvidence.length ? <span className="font-mono">{goal.freshEvidence.join(", ")}</span> : <span className="text-fg-muted">none not yet accepted</span>}
            <span className="text-fg-muted"> · {goal.acceptedEvidence.length} accepted at earlier slices</span>
          </Fact>
        </dl>
      </Card>

      <Card>
        <CardHeader title="Goal totals against goal limits" description="Cumulative over every slice (baseline plus this slice). An unknown total under a goal limit stops the goal: it cannot be checked." />
        <DataTable
          label="Goal totals"
          keyboard={false}
          className={IN_CARD}
          columns={[
            { id: "name", header: "Total", cellClassName: "font-mono text-xs" },
            { id: "total", header: "So far", cellClassName: "tabular-nums" },
            { id: "limit", header: "Goal limit", cellClassName: "tabular-nums" },
            { id: "state", header: "State" },
          ]}
          rows={goal.totals.map((t) => ({
            key: t.name,
            data: { "data-total": t.name, "data-state": t.state },
            cells: { name: t.name, total: show(t.total, "unknown"), limit: show(t.limit, "none"), state: <Badge tone={TOTAL_STATE[t.state].tone}>{TOTAL_STATE[t.state].label}</Badge> },
          }))}
        />
      </Card>

      <Card>
        <CardHeader
          title="Slice boundaries"
          description="This slice's counters against the base policy's limits. Reaching one ends the slice (a checkpoint), not the goal; the slice advances on its own only with fresh evidence, a next step and no active child."
        />
        <DataTable
          label="Slice boundaries"
          keyboard={false}
          className={IN_CARD}
          columns={[
            { id: "counter", header: "Counter", cellClassName: "font-mono text-xs" },
            { id: "value", header: "This slice", cellClassName: "tabular-nums" },
            { id: "limit", header: "Limit", cellClassName: "tabular-nums" },
            { id: "state", header: "State" },
          ]}
          rows={goal.slice.map((s) => ({
            key: s.counter,
            data: { "data-counter": s.counter, "data-reached": String(s.reached) },
            cells: {
              counter: s.counter,
              value: s.value,
              limit: (
                <>
                  {show(s.max)} <span className="text-xs text-fg-muted">{s.limit}</span>
                </>
              ),
              state: s.reached ? <Badge tone="warn">boundary reached</Badge> : <span className="text-xs text-fg-muted">under</span>,
            },
          }))}
        />
      </Card>

      <Card>
        <CardHeader
          title="Active context and action limits"
          description="Context limits ask for compaction (the goal goes on); retry, no-evidence and concurrency limits stop this action (a diagnose or wait action may go on)."
        />
        <DataTable
          label="Action limits"
          keyboard={false}
          className={IN_CARD}
          columns={[
            { id: "metric", header: "Metric", className: "px-4", cellClassName: "font-mono text-xs" },
            { id: "kind", header: "Kind", className: "px-4", cellClassName: "text-xs text-fg-muted" },
            { id: "value", header: "This action", className: "px-4", cellClassName: "tabular-nums" },
            { id: "limit", header: "Limit", className: "px-4", cellClassName: "tabular-nums" },
            { id: "state", header: "State", className: "px-4" },
          ]}
          rows={goal.action.map((a) => ({
            key: a.metric,
            data: { "data-action-metric": a.metric, "data-reached": String(a.reached) },
            cells: {
              metric: a.metric,
              kind: a.kind === "context" ? "context" : "action",
              value: a.value,
              limit: (
                <>
                  {show(a.max)} <span className="text-xs text-fg-muted">{a.limit}</span>
                </>
              ),
              state: a.reached ? <Badge tone={a.kind === "context" ? "warn" : "danger"}>{a.kind === "context" ? "compact first" : "action stops"}</Badge> : null,
            },
          }))}
        />
      </Card>

      <Card>
        <CardHeader title="Review reserve" description="Child slots kept free for an independent reviewer while a review is required and this action is not the review." />
        <dl className="grid grid-cols-[12rem_1fr] gap-x-3 gap-y-1 px-4 py-3 text-xs" aria-label="Review reserve">
          <Fact label="review required">{goal.reviewRequired ? "yes" : "no"}</Fact>
          <Fact label="reviewer_reserve (policy)">{show(goal.reserve.policyReserve)}</Fact>
          <Fact label="held back now">{goal.reserve.inEffect}</Fact>
          <Fact label="children spawned">
            {goal.reserve.childrenSpawned} of {show(goal.reserve.maxChildren)} (max_children_per_parent)
          </Fact>
          <Fact label="room for an executor">{show(goal.reserve.executorRoom)}</Fact>
        </dl>
      </Card>

      <Card>
        <CardHeader
          title="Human gates"
          description="The latest signed decision of each gate wins: a decline or revise stops the goal, a later approve clears it. Decisions are signed here as proposal decisions are, with a key the goal policy pins."
        />
        {goal.gates.length ? (
          <ul className="divide-y divide-border text-sm" aria-label="Gates">
            {goal.gates.map((g) => (
              <li key={g.gate} data-gate={g.gate} className="px-4 py-2">
                <span className="font-mono text-xs">{g.gate}</span> <Badge tone={g.decision === "approve" ? "ok" : "danger"}>{g.decision}</Badge>{" "}
                <span className="text-xs text-fg-muted">
                  by <span className="font-mono">{g.actor}</span> at <Time iso={g.timestamp} /> — {g.rationale}
                  {g.records > 1 ? ` (latest of ${g.records})` : ""}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="px-4 py-2 text-sm text-fg-muted">No gate decision yet.</p>
        )}
        <div className="border-t border-border p-4">
          <GateDecisionForm
            projectId={projectId}
            taskId={task.taskId}
            file={task.file}
            gates={goal.gates.map((g) => g.gate)}
            signers={signing.signers}
            cannotSign={signing.cannotSign}
            pendingActionHash={goal.pendingActionHash}
          />
        </div>
      </Card>
    </div>
  );
}
