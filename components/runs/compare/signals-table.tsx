import { DataTable } from "@/components/ui/data-table";
import { decisionTone } from "@/components/runs/decision-tone";
import { Badge } from "@/components/ui/badge";
import type { SignalsComparison } from "@/lib/deep-context/compare";
import { Delta } from "./delta";

const fmt = (v: number | null) => (v === null ? "—" : v.toFixed(3));

/** Each convergence signal, the composite score and the decision: baseline, current, delta. */
export function SignalsTable({ signals, baselineLabel, changesOnly }: { signals: SignalsComparison; baselineLabel: string; changesOnly: boolean }) {
  const { decision, blockers } = signals;
  return (
    <div className="space-y-3">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        Decision <Badge tone={decisionTone(decision.baseline)}>{decision.baseline}</Badge>
        <span aria-label="became">→</span>
        <Badge tone={decisionTone(decision.current)}>{decision.current}</Badge>
        {decision.changed ? null : <span className="text-xs text-fg-muted">(unchanged)</span>}
      </p>
      {blockers.baseline.join() !== blockers.current.join() ? (
        <p className="text-xs text-fg-muted">
          Blocked by: {blockers.baseline.join(", ") || "nothing"} → {blockers.current.join(", ") || "nothing"}
        </p>
      ) : null}
      {signals.rows.length ? (
        <DataTable
          label="Signals: baseline and current"
          primary={false}
          columns={[
            { id: "signal", header: "Signal", rowHeader: true, cellClassName: "font-mono text-xs" },
            { id: "baseline", header: baselineLabel, align: "right", className: "whitespace-nowrap", cellClassName: "tabular-nums" },
            { id: "current", header: "Current", align: "right", cellClassName: "tabular-nums" },
            { id: "delta", header: "Δ", align: "right", cellClassName: "whitespace-nowrap" },
            { id: "threshold", header: "Threshold", cellClassName: "whitespace-nowrap text-xs text-fg-muted" },
          ]}
          rows={signals.rows.map((r) => ({
            key: r.signal,
            cells: {
              signal: r.signal,
              baseline: fmt(r.baseline),
              current: fmt(r.current),
              delta: <Delta value={r.delta} />,
              threshold: r.threshold === null ? "telemetry only" : `≥ ${r.threshold} · ${r.role === "blocking_guard" ? "blocking" : "weighted"}`,
            },
          }))}
        />
      ) : (
        <p className="text-sm text-fg-muted">{changesOnly ? "No signal and no score changed." : "No signals on either side."}</p>
      )}
    </div>
  );
}
