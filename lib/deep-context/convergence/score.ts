/**
 * Composite convergence score (FORMATS.md 1.8): telemetry for trend lines, never a stop gate.
 * score = round3(clamp01(Σ weight × clamp01(signal))), non-finite signals count as 0.
 */
import { SCORE_WEIGHTS, SIGNAL_NAMES } from "./constants";
import { clamp01, finiteOr, round3 } from "./math";
import type { ContextSignals } from "./signals";

/** The reuse-first weighted score of the five signals; 0 when there are no signals. */
export function computeCompositeScore(signals: Partial<ContextSignals> | null | undefined): number {
  if (!signals || typeof signals !== "object") return 0;
  let total = 0;
  for (const name of SIGNAL_NAMES) total += clamp01(signals[name]) * SCORE_WEIGHTS[name];
  return round3(clamp01(total));
}

/** A prior snapshot's score: a number, `{score}`, or `{metrics:{score}}`; null when absent or non-finite. */
export function snapshotScore(prior: unknown): number | null {
  if (typeof prior === "number") return Number.isFinite(prior) ? prior : null;
  if (!prior || typeof prior !== "object") return null;
  const p = prior as { score?: unknown; metrics?: { score?: unknown } | null };
  const direct = finiteOr(p.score, NaN);
  if (Number.isFinite(direct)) return direct;
  const nested = p.metrics && typeof p.metrics === "object" ? finiteOr(p.metrics.score, NaN) : NaN;
  return Number.isFinite(nested) ? nested : null;
}

/** round3(score − prior score); null without a prior score or when score is not finite. */
export function scoreDelta(score: number, prior: unknown): number | null {
  const before = snapshotScore(prior);
  if (before === null || !Number.isFinite(score)) return null;
  return round3(score - before);
}

/** The runtime's note next to scoreDelta. */
export function scoreDeltaNote(prior: unknown, delta: number | null): string {
  if (prior === null || prior === undefined) return "no prior snapshot";
  return delta === null ? "prior snapshot has no score" : "prior snapshot compared";
}
