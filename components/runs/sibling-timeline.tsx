import { KeyboardList } from "@/components/ui/keyboard-list";
import { Badge } from "@/components/ui/badge";
import { SiblingSignalChart, type SiblingPoint } from "./sibling-signal-chart";
import type { ResearchTimeline, ReviewTimeline } from "@/lib/deep-context/convergence";

const f = (v: number | null | undefined) => (typeof v === "number" ? v.toFixed(3) : "—");

/** Iterations of a deep-research or deep-review run with the signals its stop vote uses. */
export function SiblingTimeline({ timeline }: { timeline: ResearchTimeline | ReviewTimeline }) {
  const rows = timeline.entries as unknown as Record<string, unknown>[];
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
  const points: SiblingPoint[] = rows.map((e) => ({
    run: Number(e.run),
    ratio: num(e.newInfoRatio ?? e.newFindingsRatio),
    rollingAvg: num(e.rollingAvg),
    noiseFloor: num(e.noiseFloor),
    coverage: num(timeline.kind === "research" ? e.questionCoverage : e.dimensionCoverage),
    stopScore: num(e.stopScore),
  }));
  const threshold = timeline.kind === "research" ? timeline.settings.convergenceThreshold : timeline.settings.rollingStopThreshold;
  return (
    <div className="space-y-2">
      {points.length ? (
        <SiblingSignalChart
          data={points}
          ratioLabel={timeline.kind === "research" ? "new info ratio" : "new findings ratio"}
          coverageLabel={timeline.kind === "research" ? "question coverage" : "dimension coverage"}
          threshold={threshold}
        />
      ) : null}
      <p className="text-sm">
        Recorded stop: <strong>{timeline.recorded.stopReason ?? "none yet"}</strong>
        {timeline.recorded.run !== null ? ` at run ${timeline.recorded.run}` : ""}. First stop candidate by the rules:{" "}
        <strong>{timeline.firstStopCandidateRun ?? "none"}</strong>.
      </p>
      <div className="overflow-x-auto">
        <KeyboardList label="Iterations rows" primary={false}>
        <table className="w-full text-sm" aria-label="Iterations">
          <thead className="text-left text-xs text-fg-muted">
            <tr>
              <th className="py-1 pr-3 font-medium">Run</th>
              <th className="py-1 pr-3 font-medium">Status</th>
              <th className="py-1 pr-3 font-medium">Focus</th>
              <th className="py-1 pr-3 font-medium">{timeline.kind === "research" ? "New info" : "New findings"}</th>
              <th className="py-1 pr-3 font-medium">Rolling avg</th>
              <th className="py-1 pr-3 font-medium">MAD</th>
              <th className="py-1 pr-3 font-medium">{timeline.kind === "research" ? "Questions answered" : "Dimensions"}</th>
              <th className="py-1 pr-3 font-medium">Stop score</th>
              <th className="py-1 font-medium">Events</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => (
              <tr key={String(e.run)} data-nav-row tabIndex={-1} className="border-t border-border align-top focus-visible:bg-muted">
                <td className="py-1 pr-3 tabular-nums">{String(e.run)}</td>
                <td className="py-1 pr-3">{String(e.status ?? "—")}</td>
                <td className="max-w-80 py-1 pr-3 text-xs">{String(e.focus ?? "")}</td>
                <td className="py-1 pr-3 tabular-nums">{f((e.newInfoRatio ?? e.newFindingsRatio) as number | null)}</td>
                <td className="py-1 pr-3 tabular-nums">{f(e.rollingAvg as number | null)}</td>
                <td className="py-1 pr-3 tabular-nums">{f(e.mad as number | null)}</td>
                <td className="py-1 pr-3 tabular-nums">
                  {timeline.kind === "research" ? `${String(e.answeredQuestions)}/${String(e.totalQuestions)}` : f(e.dimensionCoverage as number | null)}
                </td>
                <td className="py-1 pr-3 tabular-nums">
                  {f(e.stopScore as number | null)} {e.stopCandidate ? <Badge tone="ok">stop candidate</Badge> : null}
                </td>
                <td className="py-1 text-xs">
                  {(e.events as string[]).join(", ")}
                  {typeof e.eventCount === "number" && e.eventCount > (e.events as string[]).length ? ` … and ${(e.eventCount - (e.events as string[]).length).toLocaleString("en")} more` : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        </KeyboardList>
      </div>
    </div>
  );
}
