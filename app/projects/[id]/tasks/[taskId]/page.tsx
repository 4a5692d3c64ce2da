import { DataTable } from "@/components/ui/data-table";
import { notFound } from "next/navigation";
import { pageProjectRole } from "@/app/_lib/page-access";
import { loadProjectOr404 } from "@/app/projects/[id]/load-project";
import { ProjectCrumbs } from "@/components/projects/project-crumbs";
import { type GateSigning, GoalDecisionPanel } from "@/components/tasks/goal-decision-panel";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { signableKeyIds } from "@/lib/auth/access";
import { roleAtLeast } from "@/lib/auth/roles";
import { type TaskEvaluation, goalGateSigners, taskEvaluations } from "@/lib/memory/desk";
import { ReasonList } from "@/components/tasks/reason-list";

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
  const signing = tasks.some((t) => t.goal) ? await gateSigning(id) : { signers: [], cannotSign: null };
  return (
    <div className="space-y-6">
      <PageHeader
        crumbs={<ProjectCrumbs id={id} name={project.name} extra={[{ href: `/projects/${id}/memory`, label: "Memory & proposals" }]} />}
        title={<span className="font-mono">{taskId}</span>}
        description={tasks.length > 1 ? `${tasks.length} checkpoint files for this task, each shown below.` : describe(tasks[0]!)}
      />
      {tasks.map((task) => (
        <TaskSection key={task.file} projectId={id} task={task} showFile={tasks.length > 1} signing={signing} />
      ))}
    </div>
  );
}

/** Who may sign a goal gate here: an approver, with a pinned key bound to their account in team mode. */
async function gateSigning(projectId: string): Promise<GateSigning> {
  const { principal, role } = await pageProjectRole(projectId);
  if (!roleAtLeast(role, "approver")) return { signers: [], cannotSign: `Your role on this project is ${role}; signing a gate decision needs approver.` };
  const [desk, own] = await Promise.all([goalGateSigners(projectId), signableKeyIds(principal)]);
  const signers = desk.signers.filter((s) => s.pinned && (!own || own.includes(s.keyId))).map((s) => s.keyId);
  if (desk.keyProblem) return { signers: [], cannotSign: desk.keyProblem };
  if (signers.length === 0)
    return { signers, cannotSign: own ? "No signing key that the goal policy pins is bound to your account; an instance admin binds one on the Admin page." : "No key on this server can sign under the goal policy." };
  return { signers, cannotSign: null };
}

function describe(task: TaskEvaluation): string {
  return task.version === 1
    ? `${task.file} (TaskCheckpoint v1) against ${task.policyFile ?? "no policy"}`
    : `${task.file} (GoalCheckpoint v2, goal ${task.goal?.goalId}, slice ${task.goal?.sliceId}) against ${task.policyFile ?? "no policy"}`;
}

function TaskSection({ projectId, task, showFile, signing }: { projectId: string; task: TaskEvaluation; showFile: boolean; signing: GateSigning }) {
  const o = task.outcome;
  if (task.goal) {
    return (
      <section className="space-y-6" aria-label={`Checkpoint ${task.file}`} data-checkpoint-file={task.file}>
        {showFile ? <h2 className="font-mono text-sm">{describe(task)}</h2> : null}
        <GoalDecisionPanel projectId={projectId} task={task} goal={task.goal} signing={signing} />
        <Card>
          <CardHeader title={o.scope ? "GoalDecision" : "Decision (fail-closed)"} description="Exactly as `workbench policy evaluate --json` prints it for this checkpoint and policy." />
          <pre className="overflow-auto p-4 text-xs" aria-label="Decision JSON">
            {task.decisionJson}
          </pre>
        </Card>
      </section>
    );
  }
  return (
    <section className="space-y-6" aria-label={`Checkpoint ${task.file}`} data-checkpoint-file={task.file}>
      {showFile ? <h2 className="font-mono text-sm">{describe(task)}</h2> : null}
      <Card>
        <CardHeader
          title={
            <span className="flex items-center gap-2">
              Decision <Badge tone={DECISION_TONE[o.decision]}>{o.decision}</Badge>
              <Badge tone={o.spawn_allowed ? "ok" : "neutral"}>{o.spawn_allowed ? "may spawn children" : "no spawning"}</Badge>
              {o.checkpoint_required ? <Badge tone="warn">checkpoint required</Badge> : null}
            </span>
          }
          description={`policy ${o.policy_id}${o.policy_hash ? ` · hash ${o.policy_hash.slice(0, 12)}…` : ""} · exit ${task.exitCode}`}
        />
        <ReasonList reasons={task.reasons} none="No reason to stop: every metric is under its limit." />
      </Card>
      <Card>
        <CardHeader title="Metrics against their limits" description="Effective limits include accepted, signed overrides. Each row follows the evaluator's rule for it." />
        <DataTable
          label="Metrics"
          primary={false}
          className="rounded-none border-0"
          columns={[
            { id: "metric", header: "Metric", className: "px-4", cellClassName: "font-mono text-xs" },
            { id: "observed", header: "Observed", className: "px-4", cellClassName: "tabular-nums" },
            { id: "limit", header: "Limit", className: "px-4", cellClassName: "tabular-nums" },
            { id: "rule", header: "Rule", className: "px-4", cellClassName: "text-xs" },
            { id: "use", header: "Use", className: "w-1/4 px-4" },
          ]}
          rows={task.metrics.map((m) => {
            const pct = m.observed !== null && m.max ? Math.min(100, (m.observed / m.max) * 100) : 0;
            return {
              key: m.metric,
              data: { "data-metric": m.metric, "data-state": m.state },
              cells: {
                metric: m.metric,
                observed: m.observed ?? "—",
                limit: (
                  <>
                    {m.max ?? "—"} <span className="text-xs text-fg-muted">{m.limit}</span>
                  </>
                ),
                rule: (
                  <>
                    {m.rule}
                    {ROW_LABEL[m.state] ? <span className="block font-medium">{ROW_LABEL[m.state]}</span> : null}
                  </>
                ),
                use: (
                  <div className="h-2 overflow-hidden rounded-full bg-muted" role="meter" aria-label={`${m.metric} against ${m.limit}`} aria-valuemin={0} aria-valuemax={m.max ?? 0} aria-valuenow={m.observed ?? 0}>
                    <div className={`h-full ${ROW_TONE[m.state] ?? (pct >= 80 ? "bg-warn" : "bg-ok")}`} style={{ width: `${pct}%` }} />
                  </div>
                ),
              },
            };
          })}
        />
      </Card>
      <Card>
        <CardHeader title="PolicyDecision" description="Exactly as `workbench policy evaluate --json` prints it." />
        <pre className="overflow-auto p-4 text-xs" aria-label="Decision JSON">
          {task.decisionJson}
        </pre>
      </Card>
    </section>
  );
}
