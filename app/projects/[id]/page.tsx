import { DataTable } from "@/components/ui/data-table";
import Link from "next/link";
import { loadProjectDetailsOr404 } from "@/app/projects/[id]/load-project";
import { IndexJobPanel } from "@/components/projects/index-job-panel";
import { RemoteCard } from "@/components/projects/remote-card";
import { RemoveProjectButton } from "@/components/projects/remove-project-button";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Time } from "@/components/ui/time";
import { listWarnings } from "@/lib/projects/service";
import { deliberateFaultsAt, sampleFaultPaths } from "@/lib/projects/sample-faults";
import { DeliberateFaultLabel } from "@/components/projects/deliberate-fault";
import { plural } from "@/lib/core/plural";

export const dynamic = "force-dynamic";

export default async function ProjectPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const project = await loadProjectDetailsOr404(id);
  const warnings = await listWarnings(id);
  // The bundled sample's own faults are labelled as such; every warning is listed either way.
  const deliberate = sampleFaultPaths(project.rootPath);
  return (
    <div className="space-y-6">
      <PageHeader
        crumbs={<Link href="/">Projects</Link>}
        title={project.name}
        description={<span className="font-mono text-xs">{project.rootPath}</span>}
        actions={
          <>
            <Link href={`/projects/${id}/topics`} className="inline-flex h-9 items-center rounded-md bg-accent px-3.5 text-sm font-medium text-accent-fg hover:opacity-90">
              Browse {plural(project.topicCount, "topic")}
            </Link>
            <RemoveProjectButton projectId={id} name={project.name} />
          </>
        }
      />
      <Card>
        <CardHeader
          title="Index"
          description={
            <>
              Last indexed <Time iso={project.lastIndexedAt} missing="never" />. Re-indexing reads only files that changed.
            </>
          }
        />
        <div className="p-4">
          <IndexJobPanel key={project.latestJob?.id} projectId={id} initialJob={project.latestJob} lastIndexedAt={project.lastIndexedAt} />
        </div>
      </Card>
      {project.remote ? <RemoteCard projectId={id} remote={project.remote} /> : null}
      <Card>
        <CardHeader title="Where context is read from" description="Resolved from configuration.yml, with the load-context defaults for anything missing." />
        <DataTable
          label="Layouts"
          primary={false}
          className="rounded-none border-0"
          columns={[
            { id: "agentDir", header: "Agent folder", className: "px-4", cellClassName: "font-mono text-xs" },
            { id: "artifact", header: "Artifact", className: "px-4" },
            { id: "path", header: "Path", className: "px-4", cellClassName: "font-mono text-xs" },
            { id: "storage", header: "Storage", className: "px-4" },
          ]}
          rows={project.layouts.flatMap((l) =>
            Object.values(l.artifacts).map((a) => ({
              key: `${l.agentDir}-${a.name}`,
              cells: {
                agentDir: l.agentDir,
                artifact: a.name,
                path: a.relPath ?? <span className="text-fg-muted">not configured</span>,
                storage: a.relPath ? <Badge>{a.storageType}</Badge> : null,
              },
            })),
          )}
        />
      </Card>
      <Card>
        <CardHeader title={`Warnings (${warnings.length})`} description="Files that could not be read as expected. Everything else was indexed." />
        {warnings.length === 0 ? (
          <div className="p-4">
            <EmptyState title="No warnings">Every file was read as expected.</EmptyState>
          </div>
        ) : (
          <ul className="divide-y divide-border" aria-label="Indexing warnings">
            {warnings.map((w) => (
              <li key={w.id} className="px-4 py-2.5 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <Badge tone="warn">{w.code.replace(/_/g, " ")}</Badge>
                  <span className="font-mono text-xs">
                    {w.relPath}
                    <DeliberateFaultLabel faults={deliberateFaultsAt(deliberate, w.relPath)} />
                  </span>
                  {w.field ? <span className="font-mono text-xs text-fg-muted">field {w.field}</span> : null}
                </div>
                <p className="mt-1 text-fg-muted">{w.message}</p>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
