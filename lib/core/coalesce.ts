/**
 * Runs `action` for a burst of signals no more than once per `gapMs`, and always once after
 * the last signal of the burst. A plain throttle drops the signals that come inside the gap:
 * a run page refreshed for a seat file would then miss the state line written 200 ms later
 * until something else changed. Here a signal inside the gap schedules one trailing call at
 * the gap's end, which reads whatever the latest signal announced.
 */
export interface Coalescer {
  /** Something changed. */
  signal(): void;
  /** Drops a scheduled call (the subscriber went away). */
  cancel(): void;
}

export interface CoalesceClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemClock: CoalesceClock = {
  // Monotonic: a wall clock stepped back would hold a scheduled call for as long.
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export function coalesce(action: () => void, gapMs: number, clock: CoalesceClock = systemClock): Coalescer {
  let lastRun = -Infinity;
  let pending: unknown = null;
  const run = () => {
    pending = null;
    lastRun = clock.now();
    action();
  };
  return {
    signal() {
      // A call is already due, after this signal: it will see what this signal announced.
      if (pending !== null) return;
      const wait = lastRun + gapMs - clock.now();
      if (wait <= 0) run();
      else pending = clock.setTimeout(run, wait);
    },
    cancel() {
      if (pending !== null) clock.clearTimeout(pending);
      pending = null;
    },
  };
}
