"use client";

import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis, Bar, ComposedChart } from "recharts";
import type { SignalPoint } from "@/lib/deep-context/views";

/** Keys of a point (see signal-provenance.ts): `signal` logged, `signal:record` the iteration record's, `signal:computed` the Workbench's. */
type IterationPoint = SignalPoint;

/** The marker of the Workbench's computed value (only the point that has one is drawn). */
function Diamond({ cx, cy, value }: { cx?: number; cy?: number; value?: unknown }) {
  if (typeof cx !== "number" || typeof cy !== "number" || typeof value !== "number") return <g />;
  return <path d={`M${cx},${cy - 5}L${cx + 5},${cy}L${cx},${cy + 5}L${cx - 5},${cy}Z`} fill="#111827" stroke="#fff" strokeWidth={1} />;
}

const shown = (v: number | null | undefined) => (typeof v === "number" ? v.toFixed(3) : "—");

const COLORS = ["#4f6bed", "#16a34a", "#d97706", "#db2777", "#0891b2"];

/**
 * One signal per iteration: the logged line, the iteration records' own figures (dotted, when
 * they are a different source), the Workbench's value as a marker on the last iteration, and the
 * threshold line when the signal has one. The caption names the values the Gates table shows.
 */
function SignalChart({
  data,
  signal,
  threshold,
  note,
  color,
  showRecord,
}: {
  data: IterationPoint[];
  signal: string;
  threshold: { value: number; blocking: boolean } | null;
  note: string;
  color: string;
  showRecord: boolean;
}) {
  const lastLogged = [...data].reverse().find((p) => typeof p[signal] === "number");
  const computed = data.find((p) => typeof p[`${signal}:computed`] === "number");
  return (
    <figure className="rounded-md border border-border p-3" data-signal={signal}>
      <figcaption className="mb-1 flex flex-wrap items-baseline justify-between gap-x-2 text-xs">
        <span className="font-medium">{signal}</span>
        <span className="text-fg-muted">{note}</span>
        <span className="w-full text-fg-muted" data-testid="chart-values">
          {lastLogged ? `log #${lastLogged.run}: ${shown(lastLogged[signal])}` : "no logged value"}
          {computed ? ` · ◆ computed #${computed.run}: ${shown(computed[`${signal}:computed`])}` : ""}
        </span>
      </figcaption>
      <div className="h-36">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ top: 5, right: 8, bottom: 0, left: -20 }}>
            <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
            <XAxis dataKey="run" tick={{ fontSize: 11 }} />
            <YAxis domain={[0, 1]} tick={{ fontSize: 11 }} />
            <Tooltip />
            {threshold ? <ReferenceLine y={threshold.value} stroke={threshold.blocking ? "#dc2626" : "#d97706"} strokeDasharray="4 4" /> : null}
            <Line type="monotone" dataKey={signal} name="state log" stroke={color} strokeWidth={2} dot={data.length < 60} isAnimationActive={false} connectNulls />
            {showRecord ? <Line type="monotone" dataKey={`${signal}:record`} name="iteration record" stroke="#94a3b8" strokeWidth={1} strokeDasharray="2 3" dot={false} isAnimationActive={false} connectNulls /> : null}
            <Line dataKey={`${signal}:computed`} name="Workbench (computed)" stroke="none" legendType="diamond" dot={Diamond} activeDot={false} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

/** Each signal per iteration against its threshold, the composite score, and new agreement. */
export function SignalCharts({
  data,
  thresholds,
  convergenceThreshold,
  showRecord,
}: {
  data: IterationPoint[];
  thresholds: { signal: string; threshold: number; role: string }[];
  convergenceThreshold: number;
  /** Draw the iteration records' figures too (when the solid line is another source). */
  showRecord: boolean;
}) {
  return (
    <div className="space-y-3">
      <div className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
        {thresholds.map((t, i) => (
          <SignalChart
            key={t.signal}
            data={data}
            signal={t.signal}
            threshold={{ value: t.threshold, blocking: t.role === "blocking_guard" }}
            note={`threshold ${t.threshold} · ${t.role === "blocking_guard" ? "blocking guard" : "weighted"}`}
            color={COLORS[i % COLORS.length]!}
            showRecord={showRecord}
          />
        ))}
        <SignalChart data={data} signal="score" threshold={null} note="composite score: telemetry only, never a gate" color="#7c3aed" showRecord={false} />
      </div>
      <figure className="rounded-md border border-border p-3">
        <figcaption className="mb-1 flex items-baseline justify-between text-xs">
          <span className="font-medium">new agreement-eligible findings per iteration</span>
          <span className="text-fg-muted">new ratio against the convergence threshold {convergenceThreshold}</span>
        </figcaption>
        <div className="h-44">
          <ResponsiveContainer width="100%" height="100%">
            <ComposedChart data={data} margin={{ top: 5, right: 8, bottom: 0, left: -20 }}>
              <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
              <XAxis dataKey="run" tick={{ fontSize: 11 }} />
              <YAxis yAxisId="n" tick={{ fontSize: 11 }} />
              <YAxis yAxisId="r" orientation="right" domain={[0, 1]} tick={{ fontSize: 11 }} />
              <Tooltip />
              <Legend wrapperStyle={{ fontSize: 11 }} />
              <Bar yAxisId="n" dataKey="newAgreementEligible" name="new agreement-eligible" fill="#4f6bed" isAnimationActive={false} />
              <Line yAxisId="r" dataKey="newRatio" name="new ratio" stroke="#16a34a" strokeWidth={2} dot={false} isAnimationActive={false} />
              <ReferenceLine yAxisId="r" y={convergenceThreshold} stroke="#dc2626" strokeDasharray="4 4" />
            </ComposedChart>
          </ResponsiveContainer>
        </div>
      </figure>
    </div>
  );
}
