import { LoadContextView } from "@/components/context/load-context-view";
import { ContextQueryForm } from "@/components/topics/context-query-form";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { loadContextForProject } from "@/lib/inventory/service";
import { loadProjectOr404 } from "@/app/projects/[id]/load-project";
import { sampleFaultPaths } from "@/lib/projects/sample-faults";
import { ProjectCrumbs } from "@/components/projects/project-crumbs";

export const dynamic = "force-dynamic";

export async function generateMetadata({ searchParams }: { searchParams: Promise<{ q?: string }> }) {
  const { q } = await searchParams;
  return { title: q ? `Context: ${q}` : "Load context" };
}

export default async function ContextPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ q?: string | string[] }> }) {
  const { id } = await params;
  const raw = (await searchParams).q;
  const q = typeof raw === "string" ? raw : undefined;
  const project = await loadProjectOr404(id);
  let body: React.ReactNode;
  if (q === undefined) {
    body = (
      <EmptyState title="Ask for a topic">
        Type a ticket id, a slug, a branch name or a few words. Exact matches come first; otherwise folder names, file contents, knowledge bases and git history are searched.
      </EmptyState>
    );
  } else if (q.trim() === "") {
    body = (
      <p role="alert" className="text-sm text-danger">
        The query is blank. Type an identifier or some words.
      </p>
    );
  } else {
    const { result, markdown } = await loadContextForProject(project, q);
    body = <LoadContextView result={result} markdown={markdown} projectId={id} deliberate={sampleFaultPaths(project.rootPath)} />;
  }
  return (
    <div>
      <PageHeader crumbs={<ProjectCrumbs id={id} name={project.name} />} title={q && q.trim() ? `Context: ${q}` : "Load context"} actions={<ContextQueryForm key={q ?? ""} projectId={id} initial={q ?? ""} />} />
      {body}
    </div>
  );
}
