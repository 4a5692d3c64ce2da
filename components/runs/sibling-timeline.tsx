import { DataTable } from "@/components/ui/data-table";
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
        {timeline.recorded.run !== null ? ` at run ${timeline.recorded.run}` : ""}. First stop candidate by the rules: <strong>{timeline.firstStopCandidateRun ?? "none"}</strong>.
      </p>
      <DataTable
        label="Iterations"
        primary={false}
        columns={[
          { id: "run", header: "Run", cellClassName: "tabular-nums" },
          { id: "status", header: "Status" },
          { id: "focus", header: "Focus", cellClassName: "max-w-80 text-xs" },
          { id: "ratio", header: timeline.kind === "research" ? "New info" : "New findings", cellClassName: "tabular-nums" },
          { id: "rollingAvg", header: "Rolling avg", cellClassName: "tabular-nums" },
          { id: "mad", header: "MAD", cellClassName: "tabular-nums" },
          { id: "coverage", header: timeline.kind === "research" ? "Questions answered" : "Dimensions", cellClassName: "tabular-nums" },
          { id: "stopScore", header: "Stop score", cellClassName: "tabular-nums" },
          { id: "events", header: "Events", cellClassName: "text-xs" },
        ]}
        rows={rows.map((e) => ({
          key: String(e.run),
          className: "align-top",
          cells: {
            run: String(e.run),
            status: String(e.status ?? "—"),
            focus: String(e.focus ?? ""),
            ratio: f((e.newInfoRatio ?? e.newFindingsRatio) as number | null),
            rollingAvg: f(e.rollingAvg as number | null),
            mad: f(e.mad as number | null),
            coverage: timeline.kind === "research" ? `${String(e.answeredQuestions)}/${String(e.totalQuestions)}` : f(e.dimensionCoverage as number | null),
            stopScore: (
              <>
                {f(e.stopScore as number | null)} {e.stopCandidate ? <Badge tone="ok">stop candidate</Badge> : null}
              </>
            ),
            events: (
              <>
                {(e.events as string[]).join(", ")}
                {typeof e.eventCount === "number" && e.eventCount > (e.events as string[]).length ? ` … and ${(e.eventCount - (e.events as string[]).length).toLocaleString("en")} more` : ""}
              </>
            ),
          },
        }))}
      />
    </div>
  );
}
