import { KeyboardList } from "@/components/ui/keyboard-list";
import { DataTable } from "@/components/ui/data-table";
import type { AgreementView } from "@/lib/deep-context/views";

/** Shared findings between executors as a heat map, with each executor's contribution. */
export function AgreementMatrix({ view }: { view: AgreementView }) {
  const max = Math.max(1, ...view.matrix.flat());
  const maxDist = Math.max(1, ...view.distribution.map((d) => d.findings));
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <div className="overflow-x-auto">
        <KeyboardList label="Agreement matrix rows" primary={false}>
          <table className="text-xs" aria-label="Agreement matrix">
            <thead>
              <tr>
                <th className="p-1" />
                {view.executors.map((e) => (
                  <th key={e} scope="col" className="p-1 font-mono font-medium">
                    {e}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {view.executors.map((row, i) => (
                <tr key={row} data-nav-row tabIndex={-1} className="focus-visible:bg-muted">
                  <th scope="row" className="p-1 text-right font-mono font-medium">
                    {row}
                  </th>
                  {view.matrix[i]!.map((v, j) => (
                    <td key={j} className="p-0.5">
                      <div
                        className="flex size-12 items-center justify-center rounded tabular-nums"
                        style={{ background: `color-mix(in oklch, var(--color-accent) ${Math.round((v / max) * 85)}%, transparent)` }}
                        title={`${row} & ${view.executors[j]}: ${v} shared findings`}
                      >
                        {v}
                      </div>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </KeyboardList>
      </div>
      <div className="space-y-4">
        <DataTable
          label="Executor contributions"
          primary={false}
          className="rounded-none border-0 bg-transparent"
          columns={[
            { id: "executor", header: "Executor", className: "px-0 py-1", cellClassName: "font-mono text-xs" },
            { id: "findings", header: "Findings", align: "right", className: "px-0 py-1", cellClassName: "tabular-nums" },
            { id: "unique", header: "Unique", align: "right", className: "px-0 py-1", cellClassName: "tabular-nums" },
            { id: "eligible", header: "Agreement-eligible", align: "right", className: "px-0 py-1", cellClassName: "tabular-nums" },
          ]}
          rows={view.contributions.map((c) => ({ key: c.executor, cells: { executor: c.executor, findings: c.findings, unique: c.unique, eligible: c.eligible } }))}
        />
        <div>
          <h3 className="mb-1 text-xs font-medium text-fg-muted">Findings by agreement (k executors)</h3>
          <ul className="space-y-1" aria-label="Agreement distribution">
            {view.distribution.map((d) => (
              <li key={d.agreement} className="flex items-center gap-2 text-xs">
                <span className="w-8 tabular-nums">k={d.agreement}</span>
                <span className="h-3 rounded bg-accent" style={{ width: `${(d.findings / maxDist) * 70}%` }} aria-hidden />
                <span className="tabular-nums">{d.findings}</span>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </div>
  );
}
