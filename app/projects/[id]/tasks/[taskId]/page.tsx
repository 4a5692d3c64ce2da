import { KeyboardList } from "@/components/ui/keyboard-list";
import { notFound } from "next/navigation";
import { loadProjectOr404 } from "@/app/projects/[id]/load-project";
import { ProjectCrumbs } from "@/components/projects/project-crumbs";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { taskEvaluations } from "@/lib/memory/desk";

export const dynamic = "force-dynamic";
export const metadata = { title: "Task budget" };

const DECISION_TONE = { continue: "ok", checkpoint: "warn", stop: "danger" } as const;

export default async function TaskPage({ params }: { params: Promise<{ id: string; taskId: string }> }) {
  const { id, taskId: raw } = await params;
  const taskId = decodeURIComponent(raw);
  const project = await loadProjectOr404(id);
  const task = (await taskEvaluations(id)).find((t) => t.taskId === taskId);
  if (!task) notFound();
  const o = task.outcome;
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        crumbs={<ProjectCrumbs id={id} name={project.name} extra={[{ href: `/projects/${id}/memory`, label: "Memory & proposals" }]} />}
        title={<span className="font-mono">{task.taskId}</span>}
        description={`${task.file} (TaskCheckpoint v${task.version}) against ${task.policyFile ?? "no policy"}`}
      />
      <Card>
        <CardHeader
          title={
            <span className="flex items-center gap-2">
              Decision <Badge tone={DECISION_TONE[o.decision]}>{o.decision}</Badge>
              <Badge tone={o.spawn_allowed ? "ok" : "neutral"}>{o.spawn_allowed ? "may spawn children" : "no spawning"}</Badge>
              {o.checkpoint_required ? <Badge tone="warn">checkpoint required</Badge> : null}
            </span>
          }
          description={`policy ${o.policy_id}${o.policy_hash ? ` · hash ${o.policy_hash.slice(0, 12)}…` : ""}`}
        />
        <ul className="space-y-0.5 px-4 pb-3 text-sm" aria-label="Reasons">
          {o.reasons.length ? o.reasons.map((r) => <li key={r} className="font-mono text-xs">{r}</li>) : <li className="text-fg-muted">No reason to stop: every metric is under its limit.</li>}
        </ul>
      </Card>
      <Card>
        <CardHeader title="Metrics against their limits" description="Effective limits include accepted, signed overrides." />
        <KeyboardList label="Metrics rows" primary={false}>
        <table className="w-full text-sm" aria-label="Metrics">
          <thead className="text-left text-xs text-fg-muted">
            <tr>
              <th className="px-4 py-2 font-medium">Metric</th>
              <th className="px-4 py-2 font-medium">Observed</th>
              <th className="px-4 py-2 font-medium">Limit</th>
              <th className="w-1/3 px-4 py-2 font-medium">Use</th>
            </tr>
          </thead>
          <tbody>
            {task.metrics.map((m) => {
              const pct = m.observed !== null && m.max ? Math.min(100, (m.observed / m.max) * 100) : 0;
              return (
                <tr key={m.metric} data-nav-row tabIndex={-1} className="border-t border-border focus-visible:bg-muted">
                  <td className="px-4 py-2 font-mono text-xs">{m.metric}</td>
                  <td className="px-4 py-2 tabular-nums">{m.observed ?? "—"}</td>
                  <td className="px-4 py-2 tabular-nums">
                    {m.max ?? "—"} <span className="text-xs text-fg-muted">{m.limit}</span>
                  </td>
                  <td className="px-4 py-2">
                    <div className="h-2 overflow-hidden rounded-full bg-muted" role="meter" aria-label={`${m.metric} against ${m.limit}`} aria-valuemin={0} aria-valuemax={m.max ?? 0} aria-valuenow={m.observed ?? 0}>
                      <div className={`h-full ${m.reached ? "bg-danger" : pct >= 80 ? "bg-warn" : "bg-ok"}`} style={{ width: `${pct}%` }} />
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
        <CardHeader title="PolicyDecision" description="As `workbench policy evaluate --json` prints it." />
        <pre className="overflow-auto p-4 text-xs">{JSON.stringify(task.decision, null, 2)}</pre>
      </Card>
    </div>
  );
}
