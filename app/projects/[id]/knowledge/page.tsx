import { HealthPanel } from "@/components/kb/health-panel";
import { LoaderPlayground } from "@/components/kb/loader-playground";
import { MocTree } from "@/components/kb/moc-tree";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { kbHealthForProject } from "@/lib/moc/service";
import { loadProjectOr404 } from "@/app/projects/[id]/load-project";
import { sampleFaultPaths } from "@/lib/projects/sample-faults";
import { ProjectCrumbs } from "@/components/projects/project-crumbs";
import { plural } from "@/lib/core/plural";

export const dynamic = "force-dynamic";
export const metadata = { title: "Knowledge base" };

export default async function KnowledgePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const project = await loadProjectOr404(id);
  const health = await kbHealthForProject(id);
  return (
    <div className="space-y-6">
      <PageHeader
        crumbs={<ProjectCrumbs id={id} name={project.name} />}
        title="Knowledge base"
        description="The docs/ map of content, the pack the context-loader builds from it for a prompt, and what makes that pack worse."
      />
      {!health.initialized || !health.tree ? (
        <EmptyState title="No docs/_index.md">The context-loader answers kb_not_initialized for this project. Create docs/_index.md with a list of sections to start a map of content.</EmptyState>
      ) : (
        <>
          <Card>
            <CardHeader title="Ask the context-loader" description="Steps 1-8 of the protocol: triviality gate, root, relevance, descent to depth 3, at most 6 files, 2 excerpts of 25 lines, 3,000 tokens." />
            <div className="p-4">
              <LoaderPlayground projectId={id} />
            </div>
          </Card>
          <Card>
            <CardHeader title="Health" description={`${plural(health.sections, "index", "indexes")}, ${plural(health.files, "linked file")}.`} />
            <HealthPanel health={health} deliberate={sampleFaultPaths(project.rootPath)} />
          </Card>
          <Card>
            <CardHeader title="Map of content" />
            <div className="overflow-x-auto p-4">
              <MocTree root={health.tree} />
            </div>
          </Card>
        </>
      )}
    </div>
  );
}
