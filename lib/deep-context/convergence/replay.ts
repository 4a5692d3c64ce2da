/**
 * Replays the host loop's stop rules (FORMATS.md 1.10; deep_context_auto.yaml step_check_convergence,
 * step_emit_blocked_stop, step_handle_convergence, step_update_tracking, step_collect_seat_findings)
 * over a parsed deep-context state log, and says per iteration why the loop went on or stopped.
 *
 * Order per run, as the workflow runs it:
 *   0. a userPaused event for the run → STOP userPaused
 *   1. sweep settled with no seat succeeding → empty-sweep streak + 1 (else reset); at 3 → STOP error
 *   2. run ≥ maxIterations → STOP maxIterationsReached
 *      (an all-seats-failed sweep below the limit then just continues: with nothing merged it neither
 *      advances nor resets the saturation streak or the stuck count — the workflow does not say how a
 *      zero-finding merge should count, and counting it as "low progress" could "converge" a loop
 *      whose seats are all down)
 *   3. stuck_count (as left by earlier iterations) ≥ stuckThreshold → STUCK_RECOVERY (stuckRecovery
 *      event, focus "RECOVERY: Widen the slice frontier", stuck_count reset)
 *   4. host saturation: new_ratio = newAgreementEligible / max(1, findingsCount); below
 *      convergenceThreshold → low-progress streak + 1, else 0; saturated when streak ≥ K (minIterations)
 *   5. combined with the run's graph_convergence decision: not saturated → CONTINUE; saturated and
 *      STOP_ALLOWED (or no graph event) → STOP converged; saturated and STOP_BLOCKED → BLOCKED
 *      (blocked_stop event, recovery focus, the loop continues); saturated and CONTINUE → CONTINUE
 *      (the graph downgrades the STOP candidate)
 *   then stuck_count = (newAgreementEligible == 0 and findingsCount > 0) ? stuck_count + 1 : 0.
 * Steps 2–3 end the check early, as in the workflow, so the low-progress streak is not updated
 * on a stuck-recovery iteration.
 */
import { HOST_DEFAULTS } from "./constants";
import type { GraphDecision } from "./decide";
import { normalizeBlocker, numericSignals, type ContextEventRecord, type ContextIterationRecord, type ContextStateLog } from "./state-log";

export type StopReason = "converged" | "maxIterationsReached" | "blockedStop" | "stuckRecovery" | "error" | "manualStop" | "userPaused";
export type ReplayDecision = "CONTINUE" | "STOP" | "BLOCKED" | "STUCK_RECOVERY";
export type ReplayReason =
  | "converged"
  | "maxIterationsReached"
  | "blockedStop"
  | "stuckRecovery"
  | "error"
  | "userPaused"
  /** host not saturated yet */
  | "notSaturated"
  /** host saturated but the graph said CONTINUE */
  | "graphContinue"
  /** every seat failed this sweep (below the limit): nothing merged, the loop retries */
  | "emptySweep";

export interface ReplayConfig {
  maxIterations: number;
  convergenceThreshold: number;
  stuckThreshold: number;
  /** K consecutive low-progress iterations for host saturation. */
  minIterations: number;
  emptySweepLimit: number;
}

export interface ReplayBlocker {
  type: string;
  severity?: string;
  count?: number;
}

export interface ReplayEntry {
  run: number;
  focus: string | null;
  decision: ReplayDecision;
  reason: ReplayReason;
  /** One sentence: why the loop went on or stopped. */
  explanation: string;
  /** False once the loop stops at this run. */
  continues: boolean;
  graphDecision: GraphDecision | null;
  signals?: Record<string, number>;
  blockers?: ReplayBlocker[];
  recoveryStrategy?: string;
  nextFocus?: string;
  findingsCount: number;
  newAgreementEligible: number;
  newRatio: number;
  lowProgressStreak: number;
  saturated: boolean;
  /** stuck_count at the check (left by earlier iterations). */
  stuckCount: number;
  /** stuck_count after this iteration's tracking update. */
  stuckCountAfter: number;
  allSeatsFailed: boolean;
  emptySweepStreak: number;
  /** Event names the log records for this run, in file order. */
  events: string[];
  /** Lifecycle events the rules append at this run (blocked_stop, stuckRecovery). */
  expectedEvents: string[];
  /** Where the log and the rules disagree at this run. */
  divergences: string[];
  /** Other observations (e.g. no graph decision recorded for the run). */
  notes: string[];
  /** True when the rules had already stopped the loop before this run. */
  afterStop: boolean;
}

export interface ReplayResult {
  config: ReplayConfig;
  entries: ReplayEntry[];
  stopReason: StopReason | null;
  stoppedAtRun: number | null;
  finalGraphDecision: GraphDecision | null;
  finalBlockers: ReplayBlocker[];
  finalSignals: Record<string, number> | null;
  recorded: { stopReason: string | null; run: number | null; openBlockers: string[] };
  /** The replayed stop reason (and run, when recorded) equals the log's own. */
  matchesRecord: boolean;
  divergences: string[];
}

export const RECOVERY_BY_BLOCKER: Readonly<Record<string, string>> = {
  uncovered_slices: "Sweep the uncovered SLICE nodes (slices without a COVERED_BY edge)",
  low_relevance_focus: "Narrow the focus to high-relevance anchors",
  low_cross_executor_agreement: "Re-sweep low-agreement findings so more executors confirm them",
};
export const DEFAULT_RECOVERY = "Sweep uncovered slices; raise agreement before stopping.";
export const STUCK_RECOVERY_FOCUS = "RECOVERY: Widen the slice frontier";

/** The recovery strategy for a set of blockers: one clause per blocking type, else the generic hint. */
export function recoveryStrategyFor(blockers: readonly ReplayBlocker[]): string {
  const blocking = blockers.filter((b) => b.severity === undefined || b.severity === "blocking");
  const parts = [...new Set(blocking.map((b) => RECOVERY_BY_BLOCKER[b.type] ?? `Resolve ${b.type}`))];
  return parts.length > 0 ? parts.join("; ") : DEFAULT_RECOVERY;
}

function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** Host-loop settings: deep-context-config.json values win over the JSONL config line, then defaults. */
export function resolveReplayConfig(log: ContextStateLog, fileConfig?: Record<string, unknown> | null): ReplayConfig {
  const line = (log.config ?? {}) as Record<string, unknown>;
  const pick = (key: string): number | undefined => num(fileConfig?.[key]) ?? num(line[key]);
  const anti = (src: Record<string, unknown> | null | undefined) => {
    const a = src?.antiConvergence;
    return a && typeof a === "object" ? num((a as Record<string, unknown>).minIterations) : undefined;
  };
  return {
    maxIterations: pick("maxIterations") ?? HOST_DEFAULTS.maxIterations,
    convergenceThreshold: pick("convergenceThreshold") ?? HOST_DEFAULTS.convergenceThreshold,
    stuckThreshold: pick("stuckThreshold") ?? HOST_DEFAULTS.stuckThreshold,
    minIterations: anti(fileConfig) ?? anti(line) ?? HOST_DEFAULTS.minIterations,
    emptySweepLimit: HOST_DEFAULTS.emptySweepLimit,
  };
}

const fmt = (n: number) => String(Math.round(n * 1000) / 1000);

export function replayHostLoop(log: ContextStateLog, overrides: Partial<ReplayConfig> = {}, fileConfig?: Record<string, unknown> | null): ReplayResult {
  const config: ReplayConfig = { ...resolveReplayConfig(log, fileConfig), ...overrides };
  const iterByRun = new Map<number, ContextIterationRecord>();
  for (const it of log.iterations) iterByRun.set(it.run, it);
  const eventsByRun = new Map<number, ContextEventRecord[]>();
  for (const ev of log.events) {
    if (ev.run === undefined) continue;
    // Appended in place: a log can hold hundreds of thousands of events of one run.
    const list = eventsByRun.get(ev.run);
    if (list) list.push(ev);
    else eventsByRun.set(ev.run, [ev]);
  }
  const lastOf = (evs: readonly ContextEventRecord[], name: string) => {
    for (let i = evs.length - 1; i >= 0; i--) if (evs[i]!.event === name) return evs[i];
    return undefined;
  };
  const runs = [...new Set([...log.iterations.map((i) => i.run), ...log.events.filter((e) => e.run !== undefined && (e.event === "sweep_settled" || e.event === "userPaused")).map((e) => e.run as number)])].sort(
    (a, b) => a - b,
  );

  const entries: ReplayEntry[] = [];
  let stuck = 0;
  let streak = 0;
  let emptyStreak = 0;
  let stopReason: StopReason | null = null;
  let stoppedAtRun: number | null = null;
  const allDivergences: string[] = [];

  for (const run of runs) {
    const it = iterByRun.get(run);
    const evs = eventsByRun.get(run) ?? [];
    const graphEv = lastOf(evs, "graph_convergence");
    const sweep = lastOf(evs, "sweep_settled");
    const findingsCount = num(it?.findingsCount) ?? 0;
    const newAE = num(it?.newAgreementEligible) ?? 0;
    const newRatio = newAE / Math.max(1, findingsCount);
    const graphDecision = (graphEv?.decision ?? null) as GraphDecision | null;
    const blockers = graphEv?.blockers?.map(normalizeBlocker);
    const signals = graphEv?.signals ? numericSignals(graphEv.signals) : undefined;
    const allSeatsFailed = sweep?.seatsSucceeded ? sweep.seatsSucceeded.length === 0 : it !== undefined && it.seatsSucceeded === 0 && it.status === "error";
    emptyStreak = allSeatsFailed ? emptyStreak + 1 : 0;
    const afterStop = stopReason !== null;
    const stuckAtCheck = stuck;

    const entry: ReplayEntry = {
      run,
      focus: it?.focus ?? null,
      decision: "CONTINUE",
      reason: "notSaturated",
      explanation: "",
      continues: true,
      graphDecision,
      findingsCount,
      newAgreementEligible: newAE,
      newRatio,
      lowProgressStreak: streak,
      saturated: false,
      stuckCount: stuckAtCheck,
      stuckCountAfter: stuckAtCheck,
      allSeatsFailed,
      emptySweepStreak: emptyStreak,
      events: evs.map((e) => e.event),
      expectedEvents: [],
      divergences: [],
      notes: [],
      afterStop,
    };
    if (signals) entry.signals = signals;
    if (blockers) entry.blockers = blockers;

    const stop = (reason: StopReason & ReplayReason, explanation: string) => {
      entry.decision = "STOP";
      entry.reason = reason;
      entry.explanation = explanation;
      entry.continues = false;
    };

    const paused = lastOf(evs, "userPaused");
    let checked = false;
    if (paused) {
      stop("userPaused", "A pause sentinel halted the loop before this sweep.");
    } else if (emptyStreak >= config.emptySweepLimit) {
      stop("error", `All seats failed for ${emptyStreak} consecutive sweeps (limit ${config.emptySweepLimit}); the loop goes to synthesis with reason error.`);
    } else if (run >= config.maxIterations) {
      stop("maxIterationsReached", `Run ${run} reached maxIterations ${config.maxIterations}; the cap stops the loop whatever the graph says${graphDecision ? ` (graph ${graphDecision})` : ""}.`);
    } else if (allSeatsFailed) {
      entry.reason = "emptySweep";
      entry.explanation = `Every seat failed this sweep (${emptyStreak} of ${config.emptySweepLimit} in a row); nothing was merged, so the saturation and stuck counts are left as they were and the loop retries.`;
    } else if (stuck >= config.stuckThreshold) {
      entry.decision = "STUCK_RECOVERY";
      entry.reason = "stuckRecovery";
      entry.expectedEvents.push("stuckRecovery");
      entry.nextFocus = STUCK_RECOVERY_FOCUS;
      entry.explanation = `${stuck} consecutive sweeps added no agreement-eligible findings (stuckThreshold ${config.stuckThreshold}); the host widens the slice frontier and resets the stuck count.`;
      stuck = 0;
    } else {
      checked = true;
    }

    if (checked) {
      const low = newRatio < config.convergenceThreshold;
      streak = low ? streak + 1 : 0;
      const saturated = streak >= config.minIterations;
      entry.lowProgressStreak = streak;
      entry.saturated = saturated;
      const ratioText = `new_ratio ${fmt(newRatio)} (${newAE}/${Math.max(1, findingsCount)}) ${low ? "<" : "≥"} ${fmt(config.convergenceThreshold)}`;
      if (!saturated) {
        entry.reason = "notSaturated";
        entry.explanation = `${ratioText}; low-progress streak ${streak} of ${config.minIterations}, so the host is not saturated and the loop continues${graphDecision ? ` (graph ${graphDecision})` : ""}.`;
      } else if (graphDecision === "STOP_ALLOWED" || graphDecision === null) {
        stop("converged", `${ratioText}; saturated for ${streak} iterations and ${graphDecision === null ? "no graph decision was recorded" : "the graph allows STOP"}, so the loop converged.`);
      } else if (graphDecision === "STOP_BLOCKED") {
        const strategy = recoveryStrategyFor(blockers ?? []);
        entry.decision = "BLOCKED";
        entry.reason = "blockedStop";
        entry.recoveryStrategy = strategy;
        entry.nextFocus = `RECOVERY: ${strategy}`;
        entry.expectedEvents.push("blocked_stop");
        const names = (blockers ?? []).map((b) => b.type).join(", ") || "unnamed blockers";
        entry.explanation = `${ratioText}; the host is saturated but the graph blocks STOP (${names}), so a blocked_stop is recorded and the loop continues with a recovery focus.`;
      } else {
        entry.reason = "graphContinue";
        entry.explanation = `${ratioText}; the host is saturated but the graph says CONTINUE (weighted signals below threshold), so the STOP candidate is downgraded.`;
      }
    }

    if (!(allSeatsFailed && entry.reason === "emptySweep")) stuck = newAE === 0 && findingsCount > 0 ? stuck + 1 : 0;
    entry.stuckCountAfter = stuck;

    for (const name of ["blocked_stop", "stuckRecovery"]) {
      const expected = entry.expectedEvents.includes(name);
      const recorded = entry.events.includes(name);
      if (expected && !recorded) entry.divergences.push(`the rules append ${name} at run ${run}; the log has none`);
      if (!expected && recorded) entry.divergences.push(`the log records ${name} at run ${run}; the rules do not call for one`);
    }
    if (!graphEv && it) entry.notes.push(`no graph_convergence event for run ${run}; the host treats the graph as absent`);
    if (afterStop) entry.divergences.push(`the log continues at run ${run} after the rules stopped at run ${stoppedAtRun} (${stopReason})`);
    allDivergences.push(...entry.divergences);

    if (entry.decision === "STOP" && stopReason === null) {
      stopReason = entry.reason as StopReason;
      stoppedAtRun = run;
    }
    entries.push(entry);
  }

  const lastGraph = [...log.events].reverse().find((e) => e.event === "graph_convergence");
  const recordedStop = [...log.events].reverse().find((e) => (e.event === "loop_stopped" || e.event === "synthesis_complete") && typeof e.stopReason === "string");
  const loopStopped = [...log.events].reverse().find((e) => e.event === "loop_stopped");
  const recorded = {
    stopReason: recordedStop?.stopReason ?? null,
    run: recordedStop?.run ?? loopStopped?.run ?? null,
    openBlockers: (loopStopped?.openBlockers ?? []).map((b) => normalizeBlocker(b).type),
  };
  if (recorded.stopReason !== null && recorded.stopReason !== stopReason) {
    allDivergences.push(`the log records stopReason ${recorded.stopReason}; the rules give ${stopReason ?? "no stop yet"}`);
  }
  const matchesRecord = recorded.stopReason !== null && recorded.stopReason === stopReason && (recorded.run === null || recorded.run === stoppedAtRun);

  return {
    config,
    entries,
    stopReason,
    stoppedAtRun,
    finalGraphDecision: (lastGraph?.decision ?? null) as GraphDecision | null,
    finalBlockers: (lastGraph?.blockers ?? []).map(normalizeBlocker),
    finalSignals: lastGraph?.signals ? numericSignals(lastGraph.signals) : null,
    recorded,
    matchesRecord,
    divergences: allDivergences,
  };
}
