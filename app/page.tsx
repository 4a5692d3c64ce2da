import Link from "next/link";
import { AddProjectForm } from "@/components/projects/add-project-form";
import { Badge, statusTone } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Time } from "@/components/ui/time";
import { pagePrincipal } from "@/app/_lib/page-access";
import { visibleProjectIds } from "@/lib/auth/access";
import { listProjects, listWarnings } from "@/lib/projects/service";
import { deliberateFaultsAt, isBundledSample, sampleFaultPaths } from "@/lib/projects/sample-faults";
import { pluralWord } from "@/lib/core/plural";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const principal = await pagePrincipal();
  const projects = await listProjects(await visibleProjectIds(principal));
  const canAdd = principal.kind === "local" || principal.isAdmin;
  // How many of the bundled sample's warnings are its deliberate faults (only ever said, never subtracted).
  const deliberate = new Map<string, number>();
  for (const p of projects) {
    if (p.warningCount === 0 || !isBundledSample(p.rootPath)) continue;
    const faults = sampleFaultPaths(p.rootPath);
    deliberate.set(p.id, (await listWarnings(p.id)).filter((w) => deliberateFaultsAt(faults, w.relPath).length > 0).length);
  }
  return (
    <div>
      <PageHeader title="Projects" description="Repositories whose agent context is indexed here. Indexing only reads; it never writes to a repository." />
      {canAdd ? (
        <Card className="mb-6" id="add-project">
          <CardHeader title="Add a project" description="Its .claude/ (or .opencode/, .codex/) folders, configured knowledge bases and git history are indexed." />
          <div className="p-4">
            <AddProjectForm />
          </div>
        </Card>
      ) : null}
      {projects.length === 0 ? (
        canAdd ? (
          <EmptyState title="No projects yet">Add a folder above. `npm start` adds the bundled sample project on first run.</EmptyState>
        ) : (
          <EmptyState title="No projects shared with you yet">A project's admin adds you as a viewer, editor, approver or admin.</EmptyState>
        )
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2">
          {projects.map((p) => (
            <li key={p.id}>
              <Link href={`/projects/${p.id}`} className="block rounded-lg border border-border bg-surface p-4 hover:border-accent">
                <div className="flex items-center justify-between gap-2">
                  <span className="truncate font-medium">{p.name}</span>
                  {p.latestJob ? <Badge tone={statusTone(p.latestJob.status)}>{p.latestJob.status}</Badge> : null}
                </div>
                <p className="mt-1 truncate font-mono text-xs text-fg-muted">{p.rootPath}</p>
                <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-fg-muted">
                  <span className="whitespace-nowrap">
                    <strong className="text-fg">{p.topicCount.toLocaleString("en")}</strong> {pluralWord(p.topicCount, "topic")}
                  </span>
                  <span className="whitespace-nowrap">
                    <strong className="text-fg">{p.warningCount.toLocaleString("en")}</strong> {pluralWord(p.warningCount, "warning")}
                    {deliberate.get(p.id) ? <span data-deliberate-fault=""> ({deliberate.get(p.id) === p.warningCount ? "" : `${deliberate.get(p.id)} of them `}deliberate: part of the sample)</span> : null}
                  </span>
                  <span className="whitespace-nowrap">
                    indexed <Time iso={p.lastIndexedAt} missing="never" />
                  </span>
                </p>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
