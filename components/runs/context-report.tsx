import { KeyboardList } from "@/components/ui/keyboard-list";
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
      <div className="overflow-x-auto">
        <KeyboardList label="REUSE catalog rows" primary={false}>
        <table className="w-full text-sm" aria-label="REUSE catalog">
          <thead className="text-left text-xs text-fg-muted">
            <tr>
              <th className="py-1 pr-3 font-medium">id</th>
              <th className="py-1 pr-3 font-medium">Symbol · location</th>
              <th className="py-1 pr-3 font-medium">Reuse</th>
              <th className="py-1 pr-3 font-medium">Confidence</th>
              <th className="py-1 pr-3 font-medium">Agree</th>
              <th className="py-1 pr-3 font-medium">Recorded</th>
              <th className="py-1 font-medium">Repository today</th>
            </tr>
          </thead>
          <tbody>
            {report.reuse.map((r) => (
              <tr key={r.id + r.location} data-nav-row tabIndex={-1} className="border-t border-border align-top focus-visible:bg-muted">
                <td className="py-1 pr-3 font-mono text-xs">{r.id}</td>
                <td className="py-1 pr-3">
                  <span className="font-mono text-xs">{r.symbol}</span> <span className="font-mono text-xs text-fg-muted">{r.location}</span>
                  {r.signature ? <span className="block font-mono text-[11px] text-fg-muted">{r.signature}</span> : null}
                </td>
                <td className="py-1 pr-3">{r.reuse}</td>
                <td className="py-1 pr-3 tabular-nums">{r.confidence}</td>
                <td className="py-1 pr-3 tabular-nums">{r.agree}</td>
                <td className="py-1 pr-3 text-xs">{r.recordedFreshness}</td>
                <td className="py-1">
                  <Badge tone={r.check.status === "verified" ? "ok" : r.check.status === "stale" ? "warn" : "danger"}>{r.check.status}</Badge>
                  <span className="block text-[11px] text-fg-muted">{r.check.reason}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        </KeyboardList>
        {report.reuse.length === 0 ? <p className="text-sm text-fg-muted">The report has no REUSE catalog table.</p> : null}
      </div>
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
