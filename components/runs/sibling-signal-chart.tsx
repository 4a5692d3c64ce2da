"use client";

import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface SiblingPoint {
  run: number;
  ratio: number | null;
  rollingAvg: number | null;
  noiseFloor: number | null;
  coverage: number | null;
  stopScore: number | null;
}

/** A deep-research or deep-review loop's stop-vote signals per iteration, against its stop threshold. */
export function SiblingSignalChart({ data, ratioLabel, coverageLabel, threshold }: { data: SiblingPoint[]; ratioLabel: string; coverageLabel: string; threshold: number }) {
  return (
    <figure className="rounded-md border border-border p-3">
      <figcaption className="mb-1 flex items-baseline justify-between text-xs">
        <span className="font-medium">Stop-vote signals per iteration</span>
        <span className="text-fg-muted">dashed: stop threshold {threshold}</span>
      </figcaption>
      <div className="h-56">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ top: 5, right: 8, bottom: 0, left: -20 }}>
            <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
            <XAxis dataKey="run" tick={{ fontSize: 11 }} />
            <YAxis domain={[0, 1]} tick={{ fontSize: 11 }} />
            <Tooltip />
            <Legend wrapperStyle={{ fontSize: 11 }} />
            <ReferenceLine y={threshold} stroke="#dc2626" strokeDasharray="4 4" />
            <Line dataKey="ratio" name={ratioLabel} stroke="#4f6bed" strokeWidth={2} isAnimationActive={false} connectNulls />
            <Line dataKey="rollingAvg" name="rolling average" stroke="#16a34a" strokeWidth={2} isAnimationActive={false} connectNulls />
            <Line dataKey="noiseFloor" name="MAD noise floor" stroke="#d97706" strokeDasharray="2 2" isAnimationActive={false} connectNulls />
            <Line dataKey="coverage" name={coverageLabel} stroke="#0891b2" strokeWidth={2} isAnimationActive={false} connectNulls />
            <Line dataKey="stopScore" name="stop score" stroke="#7c3aed" strokeWidth={2} isAnimationActive={false} connectNulls />
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
