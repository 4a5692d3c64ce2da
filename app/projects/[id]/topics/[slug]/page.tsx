import { LoadContextView } from "@/components/context/load-context-view";
import { PageHeader } from "@/components/ui/page-header";
import { loadContextForProject } from "@/lib/inventory/service";
import { loadProjectOr404 } from "@/app/projects/[id]/load-project";
import { ProjectCrumbs } from "@/components/projects/project-crumbs";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ slug: string }> }) {
  return { title: `Topic ${decodeURIComponent((await params).slug)}` };
}

/** A topic is the load-context result for its slug. */
export default async function TopicPage({ params }: { params: Promise<{ id: string; slug: string }> }) {
  const { id, slug: rawSlug } = await params;
  const slug = decodeURIComponent(rawSlug);
  const project = await loadProjectOr404(id);
  const { result, markdown } = await loadContextForProject(id, slug);
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        crumbs={<ProjectCrumbs id={id} name={project.name} extra={[{ href: `/projects/${id}/topics`, label: "Topics" }]} />}
        title={<span className="font-mono">{slug}</span>}
      />
      <LoadContextView result={result} markdown={markdown} projectId={id} />
    </div>
  );
}
