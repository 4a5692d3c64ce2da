import { notFound } from "next/navigation";
import { ProjectCrumbs } from "@/components/projects/project-crumbs";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Time } from "@/components/ui/time";
import { isWorkbenchError } from "@/lib/core/errors";
import { getCommit } from "@/lib/inventory/service";
import type { CommitDto } from "@/lib/inventory/types";
import { loadProjectOr404 } from "../../load-project";

export const dynamic = "force-dynamic";

/** One indexed commit message (a search hit's target). */
export default async function CommitPage({ params }: { params: Promise<{ id: string; hash: string }> }) {
  const { id, hash } = await params;
  const project = await loadProjectOr404(id);
  let commit: CommitDto;
  try {
    commit = await getCommit(id, hash);
  } catch (e) {
    if (isWorkbenchError(e) && e.code === "NOT_FOUND") notFound();
    throw e;
  }
  return (
    <div>
      <PageHeader
        crumbs={<ProjectCrumbs id={id} name={project.name} />}
        title={commit.subject || commit.hash.slice(0, 10)}
        description={
          <span>
            <span className="font-mono text-xs">{commit.hash}</span> · <Time iso={commit.date} />
          </span>
        }
      />
      <Card className="p-4" aria-label="Commit message">
        <pre className="whitespace-pre-wrap break-words font-mono text-xs">{commit.message}</pre>
      </Card>
    </div>
  );
}
