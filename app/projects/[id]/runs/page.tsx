import { DataTable } from "@/components/ui/data-table";
import { loadProjectOr404 } from "@/app/projects/[id]/load-project";
import { ProjectCrumbs } from "@/components/projects/project-crumbs";
import { decisionTone } from "@/components/runs/decision-tone";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Time } from "@/components/ui/time";
import { listRuns } from "@/lib/deep-context/service";
import { TextLink } from "@/components/ui/text-link";

export const dynamic = "force-dynamic";
export const metadata = { title: "Deep-loop runs" };

export default async function RunsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const project = await loadProjectOr404(id);
  const runs = await listRuns(id);
  return (
    <div>
      <PageHeader crumbs={<ProjectCrumbs id={id} name={project.name} />} title="Deep-loop runs" description="Run packets of deep-context, deep-research and deep-review found under the project's spec folders." />
      {runs.length === 0 ? (
        <EmptyState title="No run packets">No deep-context-state.jsonl (or deep-research / deep-review state log) under .opencode/specs, specs or the other spec roots.</EmptyState>
      ) : (
        <DataTable
          label="Runs"
          columns={[
            { id: "packet", header: "Packet", cellClassName: "max-w-96" },
            { id: "loop", header: "Loop" },
            { id: "iterations", header: "Iterations", cellClassName: "tabular-nums" },
            { id: "decision", header: "Decision" },
            { id: "stop", header: "Stop", cellClassName: "text-xs" },
            { id: "executors", header: "Executors", cellClassName: "text-xs" },
            { id: "lastEvent", header: "Last event", cellClassName: "text-xs" },
          ]}
          rows={runs.map((r) => ({
            key: r.id,
            className: "align-top",
            cells: {
              packet: (
                <>
                  <TextLink href={`/projects/${id}/runs/${r.id}`} className="font-mono text-xs">
                    {r.relPath}
                  </TextLink>
                  {r.scope ? <p className="mt-0.5 line-clamp-2 text-xs text-fg-muted">{r.scope}</p> : null}
                  {r.archived ? <Badge tone="warn">archived</Badge> : null}
                </>
              ),
              loop: r.loopType,
              iterations: r.iterations,
              decision: r.decision ? <Badge tone={decisionTone(r.decision)}>{r.decision}</Badge> : <span className="text-fg-muted">—</span>,
              stop: r.stopReason ?? r.status ?? "—",
              executors: r.executors.join(", ") || "—",
              lastEvent: <Time iso={r.lastEventAt} />,
            },
          }))}
        />
      )}
    </div>
  );
}
