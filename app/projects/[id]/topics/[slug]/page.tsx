import Link from "next/link";
import { notFound } from "next/navigation";
import { LoadContextView } from "@/components/context/load-context-view";
import { PageHeader } from "@/components/ui/page-header";
import { isWorkbenchError } from "@/lib/core/errors";
import { getProject } from "@/lib/db/repositories/projects";
import { loadContextForProject } from "@/lib/inventory/service";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ slug: string }> }) {
  return { title: `Topic ${decodeURIComponent((await params).slug)}` };
}

/** A topic is the load-context result for its slug. */
export default async function TopicPage({ params }: { params: Promise<{ id: string; slug: string }> }) {
  const { id, slug: rawSlug } = await params;
  const slug = decodeURIComponent(rawSlug);
  let project;
  try {
    project = await getProject(id);
  } catch (e) {
    if (isWorkbenchError(e) && e.code === "NOT_FOUND") notFound();
    throw e;
  }
  const { result, markdown } = await loadContextForProject(id, slug);
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        crumbs={
          <>
            <Link href="/">Projects</Link> / <Link href={`/projects/${id}`}>{project.name}</Link> / <Link href={`/projects/${id}/topics`}>Topics</Link>
          </>
        }
        title={<span className="font-mono">{slug}</span>}
      />
      <LoadContextView result={result} markdown={markdown} projectId={id} />
    </div>
  );
}
