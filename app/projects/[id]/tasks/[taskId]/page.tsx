import { KeyboardList } from "@/components/ui/keyboard-list";
import { notFound } from "next/navigation";
import { loadProjectOr404 } from "@/app/projects/[id]/load-project";
import { ProjectCrumbs } from "@/components/projects/project-crumbs";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { type TaskEvaluation, taskEvaluations } from "@/lib/memory/desk";

export const dynamic = "force-dynamic";
export const metadata = { title: "Task budget" };

const DECISION_TONE = { continue: "ok", checkpoint: "warn", stop: "danger" } as const;

const ROW_TONE = { under: null, reached: "bg-danger", exceeded: "bg-danger", spawn_blocked: "bg-warn", checkpoint_due: "bg-warn" } as const;
const ROW_LABEL = { under: null, reached: "limit reached: stops", exceeded: "past the limit: stops", spawn_blocked: "at the limit: no spawning", checkpoint_due: "checkpoint due" } as const;

export default async function TaskPage({ params }: { params: Promise<{ id: string; taskId: string }> }) {
  const { id, taskId: raw } = await params;
  const taskId = decodeURIComponent(raw);
  const project = await loadProjectOr404(id);
  // Every checkpoint file of the task: two GoalCheckpoints (or a v1 and a v2) may share a task id.
  const tasks = (await taskEvaluations(id)).filter((t) => t.taskId === taskId);
  if (tasks.length === 0) notFound();
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        crumbs={<ProjectCrumbs id={id} name={project.name} extra={[{ href: `/projects/${id}/memory`, label: "Memory & proposals" }]} />}
        title={<span className="font-mono">{taskId}</span>}
        description={tasks.length > 1 ? `${tasks.length} checkpoint files for this task, each shown below.` : describe(tasks[0]!)}
      />
      {tasks.map((task) => (
        <TaskSection key={task.file} task={task} showFile={tasks.length > 1} />
      ))}
    </div>
  );
}

function describe(task: TaskEvaluation): string {
  return task.version === 1
    ? `${task.file} (TaskCheckpoint v1) against ${task.policyFile ?? "no policy"}`
    : `${task.file} (GoalCheckpoint v2, goal ${task.goal?.goalId}, slice ${task.goal?.sliceId}): goal not evaluated; its embedded TaskCheckpoint v1 against ${task.policyFile ?? "no policy"}`;
}

function TaskSection({ task, showFile }: { task: TaskEvaluation; showFile: boolean }) {
  const o = task.outcome;
  const heading = task.evaluated === "embedded_task" ? "Decision for the embedded TaskCheckpoint v1" : "Decision";
  return (
    <section className="space-y-6" aria-label={`Checkpoint ${task.file}`} data-checkpoint-file={task.file}>
      {showFile ? <h2 className="font-mono text-sm">{describe(task)}</h2> : null}
      {task.goal ? (
        <div role="note" className="rounded-md border border-warn p-3 text-sm" aria-label="Goal checkpoint not evaluated">
          <p className="font-medium">
            GoalCheckpoint v2 <Badge tone="warn">goal not evaluated</Badge>
          </p>
          <p>{task.goal.notEvaluated}</p>
          <p className="text-fg-muted">{task.goal.evaluatedInstead}</p>
        </div>
      ) : null}
      <Card>
        <CardHeader
          title={
            <span className="flex items-center gap-2">
              {heading} <Badge tone={DECISION_TONE[o.decision]}>{o.decision}</Badge>
              <Badge tone={o.spawn_allowed ? "ok" : "neutral"}>{o.spawn_allowed ? "may spawn children" : "no spawning"}</Badge>
              {o.checkpoint_required ? <Badge tone="warn">checkpoint required</Badge> : null}
            </span>
          }
          description={`policy ${o.policy_id}${o.policy_hash ? ` · hash ${o.policy_hash.slice(0, 12)}…` : ""}${task.evaluated === "embedded_task" ? " · PolicyDecision v1 of the task field only" : ""}`}
        />
        <ul className="space-y-0.5 px-4 pb-3 text-sm" aria-label="Reasons">
          {o.reasons.length ? o.reasons.map((r) => <li key={r} className="font-mono text-xs">{r}</li>) : <li className="text-fg-muted">No reason to stop: every metric is under its limit.</li>}
        </ul>
      </Card>
      <Card>
        <CardHeader title="Metrics against their limits" description="Effective limits include accepted, signed overrides. Each row follows the evaluator's rule for it." />
        <KeyboardList label="Metrics rows" primary={false}>
          <table className="w-full text-sm" aria-label="Metrics">
            <thead className="text-left text-xs text-fg-muted">
              <tr>
                <th className="px-4 py-2 font-medium">Metric</th>
                <th className="px-4 py-2 font-medium">Observed</th>
                <th className="px-4 py-2 font-medium">Limit</th>
                <th className="px-4 py-2 font-medium">Rule</th>
                <th className="w-1/4 px-4 py-2 font-medium">Use</th>
              </tr>
            </thead>
            <tbody>
              {task.metrics.map((m) => {
                const pct = m.observed !== null && m.max ? Math.min(100, (m.observed / m.max) * 100) : 0;
                return (
                  <tr key={m.metric} data-nav-row data-metric={m.metric} data-state={m.state} tabIndex={-1} className="border-t border-border focus-visible:bg-muted">
                    <td className="px-4 py-2 font-mono text-xs">{m.metric}</td>
                    <td className="px-4 py-2 tabular-nums">{m.observed ?? "—"}</td>
                    <td className="px-4 py-2 tabular-nums">
                      {m.max ?? "—"} <span className="text-xs text-fg-muted">{m.limit}</span>
                    </td>
                    <td className="px-4 py-2 text-xs">
                      {m.rule}
                      {ROW_LABEL[m.state] ? <span className="block font-medium">{ROW_LABEL[m.state]}</span> : null}
                    </td>
                    <td className="px-4 py-2">
                      <div className="h-2 overflow-hidden rounded-full bg-muted" role="meter" aria-label={`${m.metric} against ${m.limit}`} aria-valuemin={0} aria-valuemax={m.max ?? 0} aria-valuenow={m.observed ?? 0}>
                        <div className={`h-full ${ROW_TONE[m.state] ?? (pct >= 80 ? "bg-warn" : "bg-ok")}`} style={{ width: `${pct}%` }} />
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </KeyboardList>
      </Card>
      <Card>
        <CardHeader title="PolicyDecision" description={task.evaluated === "embedded_task" ? "Of the embedded task only, as `workbench policy evaluate --json` prints it for that TaskCheckpoint v1." : "As `workbench policy evaluate --json` prints it."} />
        <pre className="overflow-auto p-4 text-xs">{JSON.stringify(task.decision, null, 2)}</pre>
      </Card>
    </section>
  );
}
