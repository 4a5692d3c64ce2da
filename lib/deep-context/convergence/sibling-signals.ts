/**
 * The inline convergence votes shared by the sibling loops (deep-research, deep-review): rolling
 * average, MAD noise floor, and the weighted stop vote normalized over the signals that have enough
 * data (FORMATS.md 1.12; the siblings' convergence_signals.md).
 */
import { mean, medianAbsoluteDeviation } from "./math";

/** Normal-distribution consistency constant applied to the MAD. */
export const MAD_SCALE = 1.4826;

export interface RollingVote {
  value: number | null;
  stop: boolean | null;
}

/** Mean of the last `window` ratios; STOP when below `threshold`. Null until `window` ratios exist. */
export function rollingVote(ratios: readonly number[], window: number, threshold: number): RollingVote {
  if (ratios.length < window) return { value: null, stop: null };
  const value = mean(ratios.slice(-window))!;
  return { value, stop: value < threshold };
}

export interface MadVote {
  mad: number | null;
  noiseFloor: number | null;
  stop: boolean | null;
}

/** MAD of all ratios; STOP when the latest ratio is at or below MAD × 1.4826. Null until `minCount` ratios. */
export function madVote(ratios: readonly number[], minCount: number): MadVote {
  if (ratios.length < minCount || ratios.length === 0) return { mad: null, noiseFloor: null, stop: null };
  const mad = medianAbsoluteDeviation(ratios)!;
  const noiseFloor = mad * MAD_SCALE;
  return { mad, noiseFloor, stop: ratios[ratios.length - 1]! <= noiseFloor };
}

export interface WeightedVote {
  weight: number;
  /** null: the signal has too little data and is left out of the normalization. */
  stop: boolean | null;
}

/** Σ weights of active STOP votes / Σ weights of active signals; null when no signal is active. */
export function stopScore(votes: readonly WeightedVote[]): number | null {
  const active = votes.filter((v) => v.stop !== null);
  const total = active.reduce((s, v) => s + v.weight, 0);
  if (active.length === 0 || total === 0) return null;
  return active.filter((v) => v.stop === true).reduce((s, v) => s + v.weight, 0) / total;
}
