"use client";

import { Badge, statusTone } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { Time } from "@/components/ui/time";
import type { TopicRowDto } from "@/lib/inventory/types";
import { SOURCE_KINDS, SOURCE_LABEL } from "@/lib/inventory/types";
import { TextLink } from "@/components/ui/text-link";

/** The seed's inventory table: slug, title, a mark per source, status, last updated. */
export function InventoryTable({ projectId, rows, filtered }: { projectId: string; rows: TopicRowDto[]; filtered: boolean }) {
  if (rows.length === 0) {
    return filtered ? (
      <EmptyState title="No topic matches these filters">Clear a filter to see more.</EmptyState>
    ) : (
      <EmptyState title="No context found across any source">Nothing under the work, brainstorm, proposal or refactoring folders yet. Agents create them with /create-requirements and /brainstorm.</EmptyState>
    );
  }
  // Pages come sorted and paginated from the server (most recent first): no sorting here.
  return (
    <DataTable
      label="Topics"
      columns={[
        { id: "slug", header: "Slug" },
        { id: "title", header: "Title", cellClassName: "max-w-80 truncate" },
        ...SOURCE_KINDS.map((s) => ({ id: s, header: SOURCE_LABEL[s], align: "center" as const, className: "px-2" })),
        { id: "status", header: "Status" },
        { id: "updated", header: "Updated", cellClassName: "text-fg-muted" },
      ]}
      rows={rows.map((t) => ({
        key: t.slug,
        cells: {
          slug: (
            <TextLink href={`/projects/${projectId}/topics/${encodeURIComponent(t.slug)}`} className="font-mono text-xs font-medium">
              {t.slug}
            </TextLink>
          ),
          title: <span title={t.title ?? undefined}>{t.title ?? <span className="text-fg-muted">—</span>}</span>,
          ...Object.fromEntries(
            SOURCE_KINDS.map((s) => [
              s,
              t.sources.includes(s) ? (
                <span aria-label={`in ${SOURCE_LABEL[s]}`} className="text-ok">
                  ✓
                </span>
              ) : (
                <span className="sr-only">{`not in ${SOURCE_LABEL[s]}`}</span>
              ),
            ]),
          ),
          status: t.status ? <Badge tone={statusTone(t.status)}>{t.status}</Badge> : null,
          updated: <Time iso={t.updatedAt} />,
        },
      }))}
    />
  );
}
