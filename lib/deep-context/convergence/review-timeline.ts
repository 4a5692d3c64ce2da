/**
 * deep-review timeline: per iteration, the three inline convergence votes, the composite stop
 * score, and the verdict (FORMATS.md 1.12; deep-review convergence.md §4):
 *   rolling average     w 0.30  last 2 evidence newFindingsRatio; STOP when the mean < rollingStopThreshold (0.08)
 *   MAD noise floor     w 0.25  ≥ 3 evidence ratios; STOP when the latest ≤ MAD × 1.4826
 *   dimension coverage  w 0.45  ≥ 1 iteration; STOP when every configured dimension is covered and the
 *                               coverage has held for ≥ minStabilizationPasses later iterations
 *   stopScore = Σ active STOP weights / Σ active weights; a STOP candidate when ≥ 0.60 (the review
 *   reference uses "≥"; FORMATS.md writes "> 0.60" — this module follows the reference text).
 * Verdict from the latest findingsSummary: FAIL when P0 > 0, CONDITIONAL when P1 > 0, else PASS.
 */
import { eventsByRun, recordedStop, type ReviewIterationRecord, type SiblingStateLog } from "./sibling-log";
import { madVote, rollingVote, stopScore } from "./sibling-signals";

export const REVIEW_WEIGHTS = { rollingAvg: 0.3, mad: 0.25, dimensionCoverage: 0.45 } as const;
export const REVIEW_DEFAULT_DIMENSIONS = ["correctness", "security", "traceability", "maintainability"] as const;
export const REVIEW_COMPOSITE_STOP = 0.6;

export type ReviewVerdict = "PASS" | "CONDITIONAL" | "FAIL";

export interface ReviewTimelineOptions {
  dimensions?: string[];
  rollingStopThreshold?: number;
  minStabilizationPasses?: number;
}

export interface ReviewTimelineEntry {
  run: number;
  status: string | null;
  focus: string | null;
  newFindingsRatio: number | null;
  rollingAvg: number | null;
  rollingStop: boolean | null;
  mad: number | null;
  noiseFloor: number | null;
  madStop: boolean | null;
  coveredDimensions: string[];
  missingDimensions: string[];
  dimensionCoverage: number;
  coverageAge: number | null;
  dimensionStop: boolean;
  stopScore: number | null;
  stopCandidate: boolean;
  verdict: ReviewVerdict | null;
  events: string[];
}

export interface ReviewTimeline {
  kind: "review";
  settings: { dimensions: string[]; rollingStopThreshold: number; minStabilizationPasses: number };
  entries: ReviewTimelineEntry[];
  unattachedEvents: string[];
  recorded: ReturnType<typeof recordedStop>;
  firstStopCandidateRun: number | null;
}

export function verdictOf(summary: { P0?: number | undefined; P1?: number | undefined } | undefined): ReviewVerdict | null {
  if (!summary) return null;
  if ((summary.P0 ?? 0) > 0) return "FAIL";
  if ((summary.P1 ?? 0) > 0) return "CONDITIONAL";
  return "PASS";
}

export function buildReviewTimeline(log: SiblingStateLog<ReviewIterationRecord>, opts: ReviewTimelineOptions = {}): ReviewTimeline {
  const cfg = (log.config ?? {}) as Record<string, unknown>;
  const coverageAge = cfg.coverageAge as { minStabilizationPasses?: unknown } | undefined;
  const settings = {
    dimensions: opts.dimensions ?? log.config?.dimensions ?? [...REVIEW_DEFAULT_DIMENSIONS],
    rollingStopThreshold: opts.rollingStopThreshold ?? log.config?.rollingStopThreshold ?? 0.08,
    minStabilizationPasses: opts.minStabilizationPasses ?? (typeof coverageAge?.minStabilizationPasses === "number" ? coverageAge.minStabilizationPasses : 1),
  };
  const iters = [...log.iterations].sort((a, b) => a.run - b.run);
  const { byRun, unattached } = eventsByRun(log.events);
  const covered = new Set<string>();
  let completeAt: number | null = null;
  let latestSummary: ReviewIterationRecord["findingsSummary"];
  const entries: ReviewTimelineEntry[] = [];
  let firstStopCandidateRun: number | null = null;

  iters.forEach((it, i) => {
    for (const d of it.dimensions ?? []) covered.add(d);
    const missing = settings.dimensions.filter((d) => !covered.has(d));
    if (missing.length === 0 && completeAt === null) completeAt = i;
    const age = completeAt === null ? null : i - completeAt;
    const ratios = iters
      .slice(0, i + 1)
      .filter((x) => x.status !== "thought" && typeof x.newFindingsRatio === "number")
      .map((x) => x.newFindingsRatio as number);
    const rolling = rollingVote(ratios, 2, settings.rollingStopThreshold);
    const mad = madVote(ratios, 3);
    const dimensionStop = missing.length === 0 && age !== null && age >= settings.minStabilizationPasses;
    const score = stopScore([
      { weight: REVIEW_WEIGHTS.rollingAvg, stop: rolling.stop },
      { weight: REVIEW_WEIGHTS.mad, stop: mad.stop },
      { weight: REVIEW_WEIGHTS.dimensionCoverage, stop: dimensionStop },
    ]);
    if (it.findingsSummary) latestSummary = it.findingsSummary;
    const stopCandidate = score !== null && score >= REVIEW_COMPOSITE_STOP;
    if (stopCandidate && firstStopCandidateRun === null) firstStopCandidateRun = it.run;
    entries.push({
      run: it.run,
      status: it.status ?? null,
      focus: it.focus ?? null,
      newFindingsRatio: it.newFindingsRatio ?? null,
      rollingAvg: rolling.value,
      rollingStop: rolling.stop,
      mad: mad.mad,
      noiseFloor: mad.noiseFloor,
      madStop: mad.stop,
      coveredDimensions: settings.dimensions.filter((d) => covered.has(d)),
      missingDimensions: missing,
      dimensionCoverage: settings.dimensions.length > 0 ? (settings.dimensions.length - missing.length) / settings.dimensions.length : 1,
      coverageAge: age,
      dimensionStop,
      stopScore: score,
      stopCandidate,
      verdict: verdictOf(latestSummary),
      events: byRun.get(it.run) ?? [],
    });
  });

  return { kind: "review", settings, entries, unattachedEvents: unattached, recorded: recordedStop(log.events), firstStopCandidateRun };
}
