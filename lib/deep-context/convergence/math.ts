/** Small numeric helpers shared by the convergence modules. */

/** The value when it is a finite number, else the fallback. */
export function finiteOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

/** Clamps to [0, 1]; non-finite input becomes 0. */
export function clamp01(value: unknown): number {
  const v = finiteOr(value, 0);
  return Math.max(0, Math.min(1, v));
}

/** Rounds to three decimals with Math.round, as the runtime does; -0 becomes 0. */
export function round3(value: number): number {
  const r = Math.round(value * 1000) / 1000;
  return Object.is(r, -0) ? 0 : r;
}

/** Median of a non-empty list (mean of the two middle values for even lengths); null when empty. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[mid]!;
  return (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Median absolute deviation around the median; null when empty. */
export function medianAbsoluteDeviation(values: readonly number[]): number | null {
  const m = median(values);
  if (m === null) return null;
  return median(values.map((v) => Math.abs(v - m)));
}

/** Mean of a non-empty list; null when empty. */
export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return values.reduce((s, v) => s + v, 0) / values.length;
}
