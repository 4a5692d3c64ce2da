import { DataTable, type DataColumn, type DataRow } from "@/components/ui/data-table";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import type { CompareList, CompareSection, UnitDiff, UnitState } from "@/lib/deep-context/compare";
import { Delta } from "./delta";
import { compareHref } from "./href";

const SECTION_LABEL: Record<CompareSection, string> = { added: "Added", dropped: "Dropped", changed: "Changed", unchanged: "Unchanged" };
const SECTION_EMPTY: Record<CompareSection, string> = {
  added: "No unit of the current run is missing from the baseline.",
  dropped: "Every unit of the baseline is still in the current run.",
  changed: "No unit on both sides changed its agreement, relevance, bucket or contradiction.",
  unchanged: "Every unit on both sides changed.",
};

/** One side's value, or "from → to" with the delta for a unit on both sides. */
function Move({ d, pick, digits }: { d: UnitDiff; pick: (s: UnitState) => number; digits: number }) {
  const side = d.current ?? d.baseline!;
  if (!d.baseline || !d.current || pick(d.baseline) === pick(d.current)) return <span className="tabular-nums">{pick(side).toFixed(digits)}</span>;
  return (
    <span className="tabular-nums">
      {pick(d.baseline).toFixed(digits)} → {pick(d.current).toFixed(digits)} <Delta value={Math.round((pick(d.current) - pick(d.baseline)) * 1000) / 1000} digits={digits} />
    </span>
  );
}

function unitRow(d: UnitDiff): DataRow {
  const side = d.current ?? d.baseline!;
  const bucketMoved = d.baseline && d.current && d.baseline.bucket !== d.current.bucket;
  return {
    key: d.unit_id,
    className: "align-top",
    cells: {
      unit: (
        <>
          <span className="font-mono text-xs">{d.symbol || "—"}</span>
          <span className="block truncate text-xs text-fg-muted" title={d.path}>
            {d.path}
          </span>
        </>
      ),
      kind: d.kind,
      agreement: <Move d={d} pick={(s) => s.agreement} digits={0} />,
      relevance: <Move d={d} pick={(s) => s.relevance} digits={2} />,
      bucket: bucketMoved ? `${d.baseline!.bucket} → ${d.current!.bucket}` : side.bucket,
      executors: (
        <>
          {d.executorsAdded.length || d.executorsRemoved.length ? (
            <>
              {d.executorsAdded.map((e) => (
                <span key={`+${e}`} className="mr-1 text-ok">
                  +{e}
                </span>
              ))}
              {d.executorsRemoved.map((e) => (
                <span key={`-${e}`} className="mr-1 text-danger">
                  −{e}
                </span>
              ))}
            </>
          ) : (
            side.producedBy.join(", ")
          )}
          {d.changes.includes("contradicted") ? (
            <Badge tone={d.current?.contradicted ? "warn" : "ok"} className="ml-1">
              {d.current?.contradicted ? "now contradicted" : "contradiction resolved"}
            </Badge>
          ) : null}
        </>
      ),
    },
  };
}

const UNIT_COLUMNS: DataColumn[] = [
  { id: "unit", header: "Unit", cellClassName: "max-w-96" },
  { id: "kind", header: "Kind", cellClassName: "text-xs" },
  { id: "agreement", header: "Agreement" },
  { id: "relevance", header: "Relevance" },
  { id: "bucket", header: "Bucket", cellClassName: "font-mono text-xs" },
  { id: "executors", header: "Executors", cellClassName: "text-xs" },
];

/** The units of one list (added, dropped, changed or unchanged), a page at a time, behind section links. */
export function ChangesList({
  projectId,
  runId,
  base,
  changesOnly,
  sections,
  selected,
  list,
  page,
  pageSize,
}: {
  projectId: string;
  runId: string;
  base: string;
  changesOnly: boolean;
  sections: { name: CompareSection; count: number }[];
  selected: CompareSection;
  list: CompareList;
  page: number;
  pageSize: number;
}) {
  return (
    <div>
      <nav aria-label="Change lists" className="flex flex-wrap gap-1 border-b border-border px-2 pt-2 text-sm">
        {sections.map((s) => (
          <Link
            key={s.name}
            href={compareHref(projectId, runId, { base, changes: changesOnly, section: s.name })}
            aria-current={s.name === selected ? "page" : undefined}
            className={cn(
              "-mb-px rounded-t-md border border-transparent px-3 py-1.5 focus-visible:outline-2 focus-visible:outline-accent",
              s.name === selected ? "border-border border-b-surface bg-surface font-medium" : "text-fg-muted hover:text-fg",
            )}
          >
            {SECTION_LABEL[s.name]} <span className="tabular-nums text-xs text-fg-muted">({s.count.toLocaleString("en")})</span>
          </Link>
        ))}
      </nav>
      {list.rows.length === 0 ? (
        <div className="p-4">
          <EmptyState title={`Nothing ${SECTION_LABEL[selected].toLowerCase()}`}>{SECTION_EMPTY[selected]}</EmptyState>
        </div>
      ) : (
        <div className="overflow-x-auto p-2">
          <DataTable label={`${SECTION_LABEL[selected]} units`} primary={false} className="border-0" columns={UNIT_COLUMNS} rows={list.rows.map(unitRow)} />
          <div className="px-2 pb-2">
            <Pagination
              page={page}
              pageSize={pageSize}
              total={list.matched}
              basePath={`/projects/${projectId}/runs/${runId}/compare`}
              searchParams={{ base, ...(changesOnly ? { changes: "1" } : {}), section: selected }}
            />
          </div>
        </div>
      )}
    </div>
  );
}
