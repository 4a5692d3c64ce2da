/**
 * A deadline on an I/O operation that counts only time the event loop was free to notice
 * progress. Index jobs run in the server process and may hold the loop for seconds; a plain
 * wall-clock race would then fire the moment the loop resumes, before the poll phase delivers
 * the read that finished long ago, and a healthy file would be reported as hung.
 */

/** How often the watchdog looks; a tick much later than this means the loop was held. */
const TICKS_PER_DEADLINE = 10;

export interface Deadline {
  /** Call whenever the operation makes progress (a stat or a read returned). */
  progress(): void;
}

/**
 * Runs `run`, rejecting with `onTimeout()` once the operation has gone `timeoutMs` of
 * loop-responsive time without calling `progress`. Time the loop spent blocked counts at most
 * one and a half ticks, so a late timer is never mistaken for a stalled read.
 */
export function withDeadline<T>(run: (deadline: Deadline) => Promise<T>, timeoutMs: number, onTimeout: () => Error): Promise<T> {
  const tickMs = Math.max(1, Math.floor(timeoutMs / TICKS_PER_DEADLINE));
  let idle = 0;
  let settled = false;
  let timer: NodeJS.Timeout | undefined;
  let last = Date.now();

  return new Promise<T>((resolve, reject) => {
    const finish = () => {
      settled = true;
      clearTimeout(timer);
    };
    const look = () => {
      // Checked after the poll phase, so completions that queued while the loop was held
      // are delivered (and call progress) before this decides anything.
      setImmediate(() => {
        if (settled) return;
        const now = Date.now();
        idle += Math.min(now - last, tickMs * 1.5);
        last = now;
        if (idle >= timeoutMs) {
          finish();
          reject(onTimeout());
          return;
        }
        arm();
      });
    };
    const arm = () => {
      timer = setTimeout(look, tickMs);
      timer.unref();
    };
    const deadline: Deadline = {
      progress() {
        idle = 0;
        last = Date.now();
      },
    };
    arm();
    run(deadline).then(
      (value) => {
        if (settled) return;
        finish();
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        finish();
        reject(error);
      },
    );
  });
}
