import { AsyncLocalStorage } from "node:async_hooks";

/**
 * One writer at a time per process on SQLite. better-sqlite3 waits for a lock synchronously,
 * on the one thread that would have to finish the transaction holding it: a server index job's
 * progress update (a Prisma write) issued while the index's own transaction was open stalled
 * the job for the busy timeout, 10 s. Writers queue here instead, without blocking the thread.
 * (Between processes SQLite's lock still decides, and a waiting process waits on its own.)
 */
interface Turn {
  /** What holds the turn, named when a later writer has waited long for it. */
  label: string;
  prismaTransaction: boolean;
  /** Cleared when the turn ends: work it started and left running queues like any other. */
  open: boolean;
}

interface Gate {
  tail: Promise<void>;
  holder: Turn | null;
  turn: AsyncLocalStorage<Turn | undefined>;
  /** Writes queued or holding the turn. */
  pending: number;
  waitListeners: Set<(label: string) => void>;
}

// On globalThis: Next bundles this module into several chunks of one process.
const g = globalThis as unknown as { __workbenchWriteGate?: Gate };
const gate = (g.__workbenchWriteGate ??= { tail: Promise.resolve(), holder: null, turn: new AsyncLocalStorage<Turn | undefined>(), pending: 0, waitListeners: new Set() });

/**
 * Calls `listener` with a write's label whenever that write has to wait for others to end, at
 * the moment it starts waiting: who queues behind whom, as it happens (the slow-wait warning
 * only tells after 30 s). Returns a function that stops the calls.
 */
export function onWriteWaiting(listener: (label: string) => void): () => void {
  gate.waitListeners.add(listener);
  return () => void gate.waitListeners.delete(listener);
}

/** A writer still waiting after this long is reported with what holds the queue (a self-wait never ends). */
const SLOW_WAIT_MS = 30_000;

/**
 * Runs `fn` once every write queued before it has ended. With `prismaTransaction`, statements
 * of that transaction made inside `fn` pass without queueing (see `inPrismaTransaction`).
 * Awaiting another queued write inside `fn` would wait for itself: plain-SQL transactions and
 * Prisma writes must not be awaited inside each other (docs/ARCHITECTURE.md).
 */
export async function queueWrite<T>(label: string, fn: () => Promise<T>, opts: { prismaTransaction?: boolean } = {}): Promise<T> {
  const before = gate.tail;
  let release!: () => void;
  gate.tail = new Promise<void>((r) => (release = r));
  if (gate.pending++ > 0) {
    for (const listener of gate.waitListeners) {
      try {
        listener(label);
      } catch (e) {
        // An observer's failure must not leave the queue held.
        console.error(`[workbench] a write-queue listener failed: ${(e as Error).message}`);
      }
    }
  }
  const slow = setTimeout(() => console.warn(`[workbench] a database write (${label}) has waited ${SLOW_WAIT_MS / 1000} s for ${gate.holder?.label ?? "another write"} to end`), SLOW_WAIT_MS);
  slow.unref();
  await before;
  clearTimeout(slow);
  const turn: Turn = { label, prismaTransaction: opts.prismaTransaction === true, open: true };
  gate.holder = turn;
  try {
    return await gate.turn.run(turn, fn);
  } finally {
    turn.open = false;
    gate.holder = null;
    gate.pending--;
    release();
  }
}

/**
 * Whether the caller runs inside an open, queued Prisma transaction's callback: its statements
 * are that transaction's turn (queueing them would wait for the transaction itself).
 */
export function inPrismaTransaction(): boolean {
  const turn = gate.turn.getStore();
  return turn?.prismaTransaction === true && turn.open;
}
