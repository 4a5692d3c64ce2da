import Link from "next/link";
import { LoadContextView } from "@/components/context/load-context-view";
import { NewPacketActions } from "@/components/packets/new-packet-actions";
import { Badge } from "@/components/ui/badge";
import { listPackets } from "@/lib/packets/service";
import { PageHeader } from "@/components/ui/page-header";
import { loadContextForProject } from "@/lib/inventory/service";
import { loadProjectOr404 } from "@/app/projects/[id]/load-project";
import { sampleFaultPaths } from "@/lib/projects/sample-faults";
import { ProjectCrumbs } from "@/components/projects/project-crumbs";
import { ResourceUri } from "@/components/mcp/resource-uri";
import { topicUri } from "@/lib/mcp/uris";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ slug: string }> }) {
  return { title: `Topic ${decodeURIComponent((await params).slug)}` };
}

/** A topic is the load-context result for its slug. */
export default async function TopicPage({ params }: { params: Promise<{ id: string; slug: string }> }) {
  const { id, slug: rawSlug } = await params;
  const slug = decodeURIComponent(rawSlug);
  const project = await loadProjectOr404(id);
  const { result, markdown } = await loadContextForProject(project, slug);
  const packets = await listPackets(id, { topicSlug: slug });
  return (
    <div>
      <PageHeader
        crumbs={<ProjectCrumbs id={id} name={project.name} extra={[{ href: `/projects/${id}/topics`, label: "Topics" }]} />}
        title={<span className="font-mono">{slug}</span>}
        actions={<NewPacketActions projectId={id} topicSlug={slug} />}
      />
      <ResourceUri uri={topicUri(id, slug)} className="-mt-2 mb-4" />
      {packets.length ? (
        <section aria-label="Packets for this topic" className="mb-4 rounded-lg border border-border bg-surface p-3 text-sm">
          <h2 className="mb-1 text-xs font-semibold uppercase tracking-wide text-fg-muted">Packets &amp; briefs for this topic</h2>
          <ul className="space-y-1">
            {packets.map((p) => (
              <li key={p.id} className="flex items-center gap-2">
                <Link href={`/projects/${id}/packets/${p.id}`} className="hover:underline">
                  {p.title}
                </Link>
                <Badge>{p.kind === "brief" ? "brief" : "packet"}</Badge>
                <Badge tone={p.reviewStatus === "approved" ? "ok" : "neutral"}>{p.reviewStatus.replace("_", " ")}</Badge>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <LoadContextView result={result} markdown={markdown} projectId={id} deliberate={sampleFaultPaths(project.rootPath)} />
    </div>
  );
}
