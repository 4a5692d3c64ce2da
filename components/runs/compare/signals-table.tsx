import { KeyboardList } from "@/components/ui/keyboard-list";
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
        <div className="overflow-x-auto">
          <KeyboardList label="Signals: baseline and current rows" primary={false}>
          <table className="w-full text-sm" aria-label="Signals: baseline and current">
            <thead className="text-left text-xs text-fg-muted">
              <tr>
                <th scope="col" className="py-1 pr-2 font-medium">Signal</th>
                <th scope="col" className="whitespace-nowrap px-2 py-1 text-right font-medium">{baselineLabel}</th>
                <th scope="col" className="px-2 py-1 text-right font-medium">Current</th>
                <th scope="col" className="px-2 py-1 text-right font-medium">Δ</th>
                <th scope="col" className="py-1 pl-3 font-medium">Threshold</th>
              </tr>
            </thead>
            <tbody>
              {signals.rows.map((r) => (
                <tr key={r.signal} data-nav-row tabIndex={-1} className="border-t border-border focus-visible:bg-muted">
                  <th scope="row" className="py-1 pr-2 text-left font-mono text-xs font-normal">
                    {r.signal}
                  </th>
                  <td className="px-2 py-1 text-right tabular-nums">{fmt(r.baseline)}</td>
                  <td className="px-2 py-1 text-right tabular-nums">{fmt(r.current)}</td>
                  <td className="whitespace-nowrap px-2 py-1 text-right">
                    <Delta value={r.delta} />
                  </td>
                  <td className="whitespace-nowrap py-1 pl-3 text-xs text-fg-muted">{r.threshold === null ? "telemetry only" : `≥ ${r.threshold} · ${r.role === "blocking_guard" ? "blocking" : "weighted"}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
          </KeyboardList>
        </div>
      ) : (
        <p className="text-sm text-fg-muted">{changesOnly ? "No signal and no score changed." : "No signals on either side."}</p>
      )}
    </div>
  );
}
