import Link from "next/link";
import { SavedViews } from "@/components/views/saved-views";
import { savedViews } from "@/lib/views/service";
import { Suspense } from "react";
import { ContextQueryForm } from "@/components/topics/context-query-form";
import { InventoryFilters } from "@/components/topics/inventory-filters";
import { InventoryTable } from "@/components/topics/inventory-table";
import { Pagination } from "@/components/ui/pagination";
import { PageHeader } from "@/components/ui/page-header";
import { inventoryPage, topicFilterSchema } from "@/lib/inventory/service";
import { loadProjectOr404 } from "@/app/projects/[id]/load-project";
import { ProjectCrumbs } from "@/components/projects/project-crumbs";
import { plural } from "@/lib/core/plural";

export const dynamic = "force-dynamic";

export default async function TopicsPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id } = await params;
  const sp = await searchParams;
  const raw = Object.fromEntries(Object.entries(sp).filter(([, v]) => typeof v === "string")) as Record<string, string>;
  const parsed = topicFilterSchema.safeParse(raw);
  const filter = parsed.success ? parsed.data : topicFilterSchema.parse({});
  const project = await loadProjectOr404(id);
  const [{ rows, total, statuses, page, pageSize }, views] = await Promise.all([inventoryPage(project, filter), savedViews(project, "inventory")]);
  const filtered = Boolean(filter.source || filter.status || filter.q);
  const recent = page === 1 && !filtered ? rows.slice(0, 4) : [];
  return (
    <div>
      <PageHeader
        crumbs={<ProjectCrumbs id={id} name={project.name} />}
        title="Topics"
        description={`${plural(total, "topic")}${filtered ? " match" : " found across local sources"}, most recently updated first.`}
        actions={<ContextQueryForm projectId={id} />}
      />
      {recent.length ? (
        <p className="mb-4 flex flex-wrap items-center gap-2 text-sm text-fg-muted">
          Recently updated:
          {recent.map((t) => (
            <Link key={t.slug} href={`/projects/${id}/topics/${encodeURIComponent(t.slug)}`} className="rounded-full border border-border px-2.5 py-0.5 font-mono text-xs text-fg hover:border-accent">
              {t.slug}
            </Link>
          ))}
        </p>
      ) : null}
      {!parsed.success ? (
        <p role="alert" className="mb-4 text-sm text-danger">
          Some filters in the address were not valid and were ignored.
        </p>
      ) : null}
      <Suspense>
        <InventoryFilters statuses={statuses} />
      </Suspense>
      <div className="mt-3">
        <SavedViews projectId={id} surface="inventory" views={views} suggestedName={filter.status ? `${filter.status} topics` : "My topics view"} />
      </div>
      <div className="mt-4">
        <InventoryTable projectId={id} rows={rows} filtered={filtered} />
      </div>
      <Pagination page={page} pageSize={pageSize} total={total} searchParams={raw} basePath={`/projects/${id}/topics`} />
    </div>
  );
}
