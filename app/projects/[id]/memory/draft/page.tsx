import { loadProjectOr404 } from "@/app/projects/[id]/load-project";
import { DraftEditor } from "@/components/memory/draft-editor";
import { ProjectCrumbs } from "@/components/projects/project-crumbs";
import { PageHeader } from "@/components/ui/page-header";
import { draftOr404 } from "./load-draft";

export const dynamic = "force-dynamic";
export const metadata = { title: "Brief or primer" };

export default async function DraftPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id } = await params;
  const project = await loadProjectOr404(id);
  const { kind, task, draft } = await draftOr404(id, await searchParams);
  return (
    <div className="space-y-4">
      <PageHeader
        crumbs={<ProjectCrumbs id={id} name={project.name} extra={[{ href: `/projects/${id}/memory`, label: "Memory & proposals" }]} />}
        title={kind === "brief" ? `Bounded brief${task ? ` for ${task}` : ""}` : "Session primer"}
        description={
          kind === "brief"
            ? "Only decision-relevant material: goal and acceptance, scope, evidence paths, recorded human decisions and who made them, relevant interfaces or schemas; every brief caps what comes back (status, summary, files changed, checks run, risks, blockers)."
            : "Before context runs out: goal, current state, decisions and who made them, open questions, evidence paths, next step."
        }
      />
      <DraftEditor projectId={id} kind={kind} initial={draft.markdown} budget={draft.budget} target={draft.target} actors={draft.actors} />
    </div>
  );
}
