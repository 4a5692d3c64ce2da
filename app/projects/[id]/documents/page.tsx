import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { ProjectCrumbs } from "@/components/projects/project-crumbs";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { UntrustedBlock } from "@/components/context/untrusted-block";
import { flagDirectives } from "@/lib/inventory/directives";
import { PageHeader } from "@/components/ui/page-header";
import { isWorkbenchError } from "@/lib/core/errors";
import { getDocument } from "@/lib/inventory/service";
import type { DocumentDto } from "@/lib/inventory/types";
import { loadProjectOr404 } from "../load-project";

export const dynamic = "force-dynamic";

const query = z.object({ path: z.string().min(1).max(1000).describe("the document's path in the repository") });

/** One indexed document (a search hit's target): markdown rendered sanitized, anything else as text. */
export default async function DocumentPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id } = await params;
  const project = await loadProjectOr404(id);
  const parsed = query.safeParse(await searchParams);
  if (!parsed.success) notFound();
  let doc: DocumentDto;
  try {
    doc = await getDocument(id, parsed.data.path);
  } catch (e) {
    if (isWorkbenchError(e) && e.code === "NOT_FOUND") notFound();
    throw e;
  }
  const markdown = doc.relPath.endsWith(".md");
  return (
    <div>
      <PageHeader
        crumbs={<ProjectCrumbs id={id} name={project.name} />}
        title={doc.title ?? doc.relPath.split("/").at(-1)}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-mono text-xs">{doc.relPath}</span>
            <Badge>{doc.area}</Badge>
            {doc.source ? <Badge>{doc.source}</Badge> : null}
            {doc.slug ? (
              <Link href={`/projects/${id}/topics/${encodeURIComponent(doc.slug)}`} className="text-xs text-accent hover:underline">
                topic {doc.slug}
              </Link>
            ) : null}
          </span>
        }
      />
      <Card className="p-4" aria-label="Document content">
        {markdown ? (
          // Repository text (agent summaries included): boundaries shown, directives flagged, never followed.
          <UntrustedBlock text={doc.content} untrusted flagged={flagDirectives(doc.content, doc.relPath)} />
        ) : (
          <pre className="overflow-x-auto whitespace-pre-wrap break-words font-mono text-xs">{doc.content}</pre>
        )}
      </Card>
    </div>
  );
}
