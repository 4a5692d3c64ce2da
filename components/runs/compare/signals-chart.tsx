"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { SignalRow } from "@/lib/deep-context/compare";

// Axis labels short enough to sit side by side; the table names each signal in full.
const SHORT: Record<string, string> = { sliceCoverage: "slices", reuseCatalogCoverage: "reuse", agreementRate: "agree", relevanceFloor: "relev", dependencyCompleteness: "deps", score: "score" };

/** Baseline and current side by side per signal; the table next to it carries the numbers. */
export function SignalsChart({ rows, baselineLabel }: { rows: SignalRow[]; baselineLabel: string }) {
  const data = rows.map((r) => ({ signal: r.signal, baseline: r.baseline, current: r.current }));
  return (
    <figure className="rounded-md border border-border p-3" aria-label="Signals chart: baseline and current">
      <figcaption className="mb-1 text-xs text-fg-muted">Signals and score, {baselineLabel.toLowerCase()} against current (0 to 1)</figcaption>
      <div className="h-56">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 5, right: 8, bottom: 0, left: -20 }}>
            <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
            <XAxis dataKey="signal" tick={{ fontSize: 10 }} interval={0} tickFormatter={(s: string) => SHORT[s] ?? s} />
            <YAxis domain={[0, 1]} tick={{ fontSize: 11 }} />
            <Tooltip />
            <Legend wrapperStyle={{ fontSize: 11 }} />
            <Bar dataKey="baseline" name={baselineLabel} fill="#94a3b8" isAnimationActive={false} />
            <Bar dataKey="current" name="Current" fill="#4f6bed" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
