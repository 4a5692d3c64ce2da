/**
 * deep-research timeline: per iteration, the three inline convergence votes and the composite
 * stop score (FORMATS.md 1.12; deep-research convergence_signals.md):
 *   rolling average  w 0.30  last 3 evidence ratios; STOP when the mean < convergenceThreshold
 *   MAD noise floor  w 0.35  ≥ 4 evidence ratios;    STOP when the latest ≤ MAD × 1.4826
 *   question entropy w 0.35  ≥ 1 key question;       STOP when answered / total ≥ 0.85
 *   stopScore = Σ active STOP weights / Σ active weights; a STOP candidate when > 0.60.
 * "Evidence" iterations are all but status "thought". Question coverage is cumulative: the union of
 * keyQuestions (and answeredQuestions) seen so far, since real logs list each wave's questions only
 * in the iteration that works on them. Stuck count walks back from the newest iteration: thought is
 * skipped, insight ends the count, stuck or newInfoRatio ≤ noProgressThreshold counts, anything else ends it.
 */
import { eventsByRun, recordedStop, type ResearchIterationRecord, type SiblingStateLog } from "./sibling-log";
import { madVote, rollingVote, stopScore } from "./sibling-signals";

export const RESEARCH_WEIGHTS = { rollingAvg: 0.3, mad: 0.35, entropy: 0.35 } as const;
export const RESEARCH_ENTROPY_STOP = 0.85;
export const RESEARCH_COMPOSITE_STOP = 0.6;

export interface ResearchTimelineOptions {
  convergenceThreshold?: number;
  noProgressThreshold?: number;
  stuckThreshold?: number;
}

export interface ResearchTimelineEntry {
  run: number;
  status: string | null;
  focus: string | null;
  findingsCount: number | null;
  newInfoRatio: number | null;
  evidence: boolean;
  rollingAvg: number | null;
  rollingStop: boolean | null;
  mad: number | null;
  noiseFloor: number | null;
  madStop: boolean | null;
  answeredQuestions: number;
  totalQuestions: number;
  questionCoverage: number | null;
  entropyStop: boolean | null;
  stopScore: number | null;
  stopCandidate: boolean;
  stuckCount: number;
  stuck: boolean;
  recordedSignals: Record<string, unknown> | null;
  events: string[];
}

export interface ResearchTimeline {
  kind: "research";
  settings: Required<ResearchTimelineOptions>;
  entries: ResearchTimelineEntry[];
  unattachedEvents: string[];
  recorded: ReturnType<typeof recordedStop>;
  firstStopCandidateRun: number | null;
}

function stuckCountAt(iters: readonly ResearchIterationRecord[], noProgress: number): number {
  let count = 0;
  for (let i = iters.length - 1; i >= 0; i--) {
    const it = iters[i]!;
    if (it.status === "thought") continue;
    if (it.status === "insight") break;
    if (it.status === "stuck" || (typeof it.newInfoRatio === "number" && it.newInfoRatio <= noProgress)) count++;
    else break;
  }
  return count;
}

export function buildResearchTimeline(log: SiblingStateLog<ResearchIterationRecord>, opts: ResearchTimelineOptions = {}): ResearchTimeline {
  const settings: Required<ResearchTimelineOptions> = {
    convergenceThreshold: opts.convergenceThreshold ?? log.config?.convergenceThreshold ?? 0.05,
    noProgressThreshold: opts.noProgressThreshold ?? log.config?.noProgressThreshold ?? 0.05,
    stuckThreshold: opts.stuckThreshold ?? log.config?.stuckThreshold ?? 3,
  };
  const iters = [...log.iterations].sort((a, b) => a.run - b.run);
  const { byRun, unattached } = eventsByRun(log.events);
  const keyQuestions = new Set<string>();
  const answered = new Set<string>();
  const entries: ResearchTimelineEntry[] = [];
  let firstStopCandidateRun: number | null = null;

  iters.forEach((it, i) => {
    const upTo = iters.slice(0, i + 1);
    for (const q of it.keyQuestions ?? []) keyQuestions.add(q);
    for (const q of it.answeredQuestions ?? []) {
      answered.add(q);
      keyQuestions.add(q);
    }
    const ratios = upTo.filter((x) => x.status !== "thought" && typeof x.newInfoRatio === "number").map((x) => x.newInfoRatio as number);
    const rolling = rollingVote(ratios, 3, settings.convergenceThreshold);
    const mad = madVote(ratios, 4);
    const total = keyQuestions.size;
    const coverage = total > 0 ? answered.size / total : null;
    const entropyStop = coverage === null ? null : coverage >= RESEARCH_ENTROPY_STOP;
    const score = stopScore([
      { weight: RESEARCH_WEIGHTS.rollingAvg, stop: rolling.stop },
      { weight: RESEARCH_WEIGHTS.mad, stop: mad.stop },
      { weight: RESEARCH_WEIGHTS.entropy, stop: entropyStop },
    ]);
    const stuckCount = stuckCountAt(upTo, settings.noProgressThreshold);
    const stopCandidate = score !== null && score > RESEARCH_COMPOSITE_STOP;
    if (stopCandidate && firstStopCandidateRun === null) firstStopCandidateRun = it.run;
    entries.push({
      run: it.run,
      status: it.status ?? null,
      focus: it.focus ?? null,
      findingsCount: it.findingsCount ?? null,
      newInfoRatio: it.newInfoRatio ?? null,
      evidence: it.status !== "thought",
      rollingAvg: rolling.value,
      rollingStop: rolling.stop,
      mad: mad.mad,
      noiseFloor: mad.noiseFloor,
      madStop: mad.stop,
      answeredQuestions: answered.size,
      totalQuestions: total,
      questionCoverage: coverage,
      entropyStop,
      stopScore: score,
      stopCandidate,
      stuckCount,
      stuck: stuckCount >= settings.stuckThreshold,
      recordedSignals: it.convergenceSignals ? { ...it.convergenceSignals } : null,
      events: byRun.get(it.run) ?? [],
    });
  });

  return { kind: "research", settings, entries, unattachedEvents: unattached, recorded: recordedStop(log.events), firstStopCandidateRun };
}
