import type { CompareCounts } from "@/lib/deep-context/compare";
import { cn } from "@/components/ui/cn";

function Tile({ label, value, detail, tone }: { label: string; value: number; detail?: string; tone?: "ok" | "danger" | "warn" }) {
  return (
    <div className="rounded-md border border-border bg-surface px-3 py-2">
      <dt className="text-xs text-fg-muted">{label}</dt>
      <dd className={cn("text-2xl font-semibold tabular-nums", value > 0 && tone === "ok" && "text-ok", value > 0 && tone === "danger" && "text-danger", value > 0 && tone === "warn" && "text-warn")}>
        {value.toLocaleString("en")}
      </dd>
      {detail ? <dd className="text-xs text-fg-muted">{detail}</dd> : null}
    </div>
  );
}

/** The counts of every kind of change, at a glance. */
export function CompareSummary({ counts }: { counts: CompareCounts }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" aria-label="Comparison summary">
      <Tile label="Findings added" value={counts.added} tone="ok" detail={`${counts.baseline.toLocaleString("en")} → ${counts.current.toLocaleString("en")} units`} />
      <Tile label="Findings dropped" value={counts.dropped} tone="danger" />
      <Tile label="Agreement changed" value={counts.agreementChanged} detail={`${counts.agreementUp} up · ${counts.agreementDown} down`} />
      <Tile label="Relevance / bucket" value={counts.relevanceChanged + counts.bucketChanged} detail={`${counts.relevanceChanged} relevance · ${counts.bucketChanged} bucket`} />
      <Tile label="Contradictions" value={counts.contradictionsNew + counts.contradictionsResolved} tone="warn" detail={`${counts.contradictionsNew} new · ${counts.contradictionsResolved} resolved`} />
      <Tile label="Unchanged units" value={counts.unchanged} />
    </dl>
  );
}
