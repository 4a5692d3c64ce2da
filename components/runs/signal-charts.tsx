"use client";

import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis, Bar, ComposedChart } from "recharts";

export interface IterationPoint {
  run: number;
  [signal: string]: number | null;
}

const COLORS = ["#4f6bed", "#16a34a", "#d97706", "#db2777", "#0891b2"];

/** One series per iteration, with its threshold line when it has one. */
function SignalChart({ data, signal, threshold, note, color }: { data: IterationPoint[]; signal: string; threshold: { value: number; blocking: boolean } | null; note: string; color: string }) {
  return (
    <figure className="rounded-md border border-border p-3">
      <figcaption className="mb-1 flex items-baseline justify-between text-xs">
        <span className="font-medium">{signal}</span>
        <span className="text-fg-muted">{note}</span>
      </figcaption>
      <div className="h-36">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ top: 5, right: 8, bottom: 0, left: -20 }}>
            <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
            <XAxis dataKey="run" tick={{ fontSize: 11 }} />
            <YAxis domain={[0, 1]} tick={{ fontSize: 11 }} />
            <Tooltip />
            {threshold ? <ReferenceLine y={threshold.value} stroke={threshold.blocking ? "#dc2626" : "#d97706"} strokeDasharray="4 4" /> : null}
            <Line type="monotone" dataKey={signal} stroke={color} strokeWidth={2} dot={data.length < 60} isAnimationActive={false} connectNulls />
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

/** Each signal per iteration against its threshold, the composite score, and new agreement. */
export function SignalCharts({ data, thresholds, convergenceThreshold }: { data: IterationPoint[]; thresholds: { signal: string; threshold: number; role: string }[]; convergenceThreshold: number }) {
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
          />
        ))}
        <SignalChart data={data} signal="score" threshold={null} note="composite score: telemetry only, never a gate" color="#7c3aed" />
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
