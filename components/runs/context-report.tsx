import { DataTable } from "@/components/ui/data-table";
import { Badge } from "@/components/ui/badge";
import { Markdown } from "@/components/ui/markdown";
import type { ContextReport } from "@/lib/deep-context/views";

/** The Context Report: its REUSE catalog first, each entry checked against today's repository. */
export function ContextReportView({ report }: { report: ContextReport }) {
  return (
    <div className="space-y-4" data-testid="context-report">
      {report.title ? <p className="text-sm font-medium">{report.title}</p> : null}
      <p className="text-xs text-fg-muted" data-testid="report-sources">
        REUSE catalog from {report.reuseSource === "json" ? "context-report.json" : report.reuseSource === "markdown" ? "context-report.md" : "neither file (no catalog found)"}
        {report.json ? ` · companion ${report.json.relPath}: ${report.json.reuseEntries} REUSE entr${report.json.reuseEntries === 1 ? "y" : "ies"}` : " · no context-report.json"}
      </p>
      <DataTable
        label="REUSE catalog"
        primary={false}
        empty={<p className="text-sm text-fg-muted">The report has no REUSE catalog table.</p>}
        columns={[
          { id: "id", header: "id", cellClassName: "font-mono text-xs" },
          { id: "symbol", header: "Symbol · location" },
          { id: "reuse", header: "Reuse" },
          { id: "confidence", header: "Confidence", cellClassName: "tabular-nums" },
          { id: "agree", header: "Agree", cellClassName: "tabular-nums" },
          { id: "recorded", header: "Recorded", cellClassName: "text-xs" },
          { id: "today", header: "Repository today" },
        ]}
        rows={report.reuse.map((r) => ({
          key: r.id + r.location,
          className: "align-top",
          cells: {
            id: r.id,
            symbol: (
              <>
                <span className="font-mono text-xs">{r.symbol}</span> <span className="font-mono text-xs text-fg-muted">{r.location}</span>
                {r.signature ? <span className="block font-mono text-[11px] text-fg-muted">{r.signature}</span> : null}
              </>
            ),
            reuse: r.reuse,
            confidence: r.confidence,
            agree: r.agree,
            recorded: r.recordedFreshness,
            today: (
              <>
                <Badge tone={r.check.status === "verified" ? "ok" : r.check.status === "stale" ? "warn" : "danger"}>{r.check.status}</Badge>
                <span className="block text-[11px] text-fg-muted">{r.check.reason}</span>
              </>
            ),
          },
        }))}
      />
      {report.rest ? (
        <details className="rounded-md border border-border">
          <summary className="cursor-pointer px-3 py-1.5 text-sm">The rest of the report</summary>
          <div className="border-t border-border p-3">
            <Markdown text={report.rest} />
          </div>
        </details>
      ) : null}
    </div>
  );
}
