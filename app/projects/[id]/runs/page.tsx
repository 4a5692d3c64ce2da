import Link from "next/link";
import { KeyboardList } from "@/components/ui/keyboard-list";
import { loadProjectOr404 } from "@/app/projects/[id]/load-project";
import { ProjectCrumbs } from "@/components/projects/project-crumbs";
import { decisionTone } from "@/components/runs/decision-tone";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Time } from "@/components/ui/time";
import { listRuns } from "@/lib/deep-context/service";

export const dynamic = "force-dynamic";
export const metadata = { title: "Deep-loop runs" };

export default async function RunsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const project = await loadProjectOr404(id);
  const runs = await listRuns(id);
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader crumbs={<ProjectCrumbs id={id} name={project.name} />} title="Deep-loop runs" description="Run packets of deep-context, deep-research and deep-review found under the project's spec folders." />
      {runs.length === 0 ? (
        <EmptyState title="No run packets">No deep-context-state.jsonl (or deep-research / deep-review state log) under .opencode/specs, specs or the other spec roots.</EmptyState>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-border bg-surface">
          <KeyboardList label="Runs table">
          <table className="w-full text-sm" aria-label="Runs">
            <thead className="text-left text-xs text-fg-muted">
              <tr>
                <th className="px-3 py-2 font-medium">Packet</th>
                <th className="px-3 py-2 font-medium">Loop</th>
                <th className="px-3 py-2 font-medium">Iterations</th>
                <th className="px-3 py-2 font-medium">Decision</th>
                <th className="px-3 py-2 font-medium">Stop</th>
                <th className="px-3 py-2 font-medium">Executors</th>
                <th className="px-3 py-2 font-medium">Last event</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <tr key={r.id} data-nav-row tabIndex={-1} className="border-t border-border align-top focus-visible:bg-muted">
                  <td className="max-w-96 px-3 py-2">
                    <Link href={`/projects/${id}/runs/${r.id}`} className="font-mono text-xs text-accent hover:underline">
                      {r.relPath}
                    </Link>
                    {r.scope ? <p className="mt-0.5 line-clamp-2 text-xs text-fg-muted">{r.scope}</p> : null}
                    {r.archived ? <Badge tone="warn">archived</Badge> : null}
                  </td>
                  <td className="px-3 py-2">{r.loopType}</td>
                  <td className="px-3 py-2 tabular-nums">{r.iterations}</td>
                  <td className="px-3 py-2">{r.decision ? <Badge tone={decisionTone(r.decision)}>{r.decision}</Badge> : <span className="text-fg-muted">—</span>}</td>
                  <td className="px-3 py-2 text-xs">{r.stopReason ?? r.status ?? "—"}</td>
                  <td className="px-3 py-2 text-xs">{r.executors.join(", ") || "—"}</td>
                  <td className="px-3 py-2 text-xs">
                    <Time iso={r.lastEventAt} withTime />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          </KeyboardList>
        </div>
      )}
    </div>
  );
}
