"use client";

import Link from "next/link";
import { Badge, statusTone } from "@/components/ui/badge";
import { KeyboardList } from "@/components/ui/keyboard-list";
import { EmptyState } from "@/components/ui/empty-state";
import { Time } from "@/components/ui/time";
import type { TopicRowDto } from "@/lib/db/dto";
import { SOURCE_KINDS, SOURCE_LABEL } from "@/lib/inventory/types";

/** The seed's inventory table: slug, title, a mark per source, status, last updated. */
export function InventoryTable({ projectId, rows, filtered }: { projectId: string; rows: TopicRowDto[]; filtered: boolean }) {
  if (rows.length === 0) {
    return filtered ? (
      <EmptyState title="No topic matches these filters">Clear a filter to see more.</EmptyState>
    ) : (
      <EmptyState title="No context found across any source">
        Nothing under the work, brainstorm, proposal or refactoring folders yet. Agents create them with /create-requirements and /brainstorm.
      </EmptyState>
    );
  }
  return (
    <KeyboardList label="Topics table" className="overflow-x-auto rounded-lg border border-border bg-surface">
      <table className="w-full text-sm" aria-label="Topics">
        <thead className="text-left text-xs text-fg-muted">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">Slug</th>
            <th scope="col" className="px-3 py-2 font-medium">Title</th>
            {SOURCE_KINDS.map((s) => (
              <th key={s} scope="col" className="px-2 py-2 text-center font-medium">
                {SOURCE_LABEL[s]}
              </th>
            ))}
            <th scope="col" className="px-3 py-2 font-medium">Status</th>
            <th scope="col" className="px-3 py-2 font-medium">Updated</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((t) => (
            <tr key={t.slug} data-nav-row tabIndex={-1} className="border-t border-border hover:bg-muted/60 focus-visible:bg-muted">
              <td className="px-3 py-2">
                <Link href={`/projects/${projectId}/topics/${encodeURIComponent(t.slug)}`} className="font-mono text-xs font-medium text-accent hover:underline">
                  {t.slug}
                </Link>
              </td>
              <td className="max-w-80 truncate px-3 py-2" title={t.title ?? undefined}>
                {t.title ?? <span className="text-fg-muted">—</span>}
              </td>
              {SOURCE_KINDS.map((s) => (
                <td key={s} className="px-2 py-2 text-center">
                  {t.sources.includes(s) ? (
                    <span aria-label={`in ${SOURCE_LABEL[s]}`} className="text-ok">
                      ✓
                    </span>
                  ) : (
                    <span className="sr-only">not in {SOURCE_LABEL[s]}</span>
                  )}
                </td>
              ))}
              <td className="px-3 py-2">{t.status ? <Badge tone={statusTone(t.status)}>{t.status}</Badge> : null}</td>
              <td className="px-3 py-2 text-fg-muted">
                <Time iso={t.updatedAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </KeyboardList>
  );
}
