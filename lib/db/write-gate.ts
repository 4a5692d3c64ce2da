import { AsyncLocalStorage } from "node:async_hooks";

/**
 * One writer at a time per process on SQLite. better-sqlite3 waits for a lock synchronously,
 * on the one thread that would have to finish the transaction holding it: a server index job's
 * progress update (a Prisma write) issued while the index's own transaction was open stalled
 * the job for the busy timeout, 10 s. Writers queue here instead, without blocking the thread.
 * Other processes still meet at SQLite's lock, where waiting is harmless.
 */
interface Gate {
  tail: Promise<void>;
  /** Set inside a Prisma transaction's callback, whose own statements run under its turn. */
  prismaTransaction: AsyncLocalStorage<true>;
}

// On globalThis: Next bundles this module into several chunks of one process.
const g = globalThis as unknown as { __workbenchWriteGate?: Gate };
const gate = (g.__workbenchWriteGate ??= { tail: Promise.resolve(), prismaTransaction: new AsyncLocalStorage<true>() });

/**
 * Runs `fn` once every write queued before it has ended. With `prismaTransaction`, statements
 * of that transaction made inside `fn` pass without queueing (see `inPrismaTransaction`).
 */
export async function queueWrite<T>(fn: () => Promise<T>, opts: { prismaTransaction?: boolean } = {}): Promise<T> {
  const before = gate.tail;
  let release!: () => void;
  gate.tail = new Promise<void>((r) => (release = r));
  await before;
  try {
    return await (opts.prismaTransaction ? gate.prismaTransaction.run(true, fn) : fn());
  } finally {
    release();
  }
}

/**
 * Whether the caller runs inside a queued Prisma transaction's callback: its statements are
 * that transaction's turn (queueing them would wait for the transaction itself).
 */
export function inPrismaTransaction(): boolean {
  return gate.prismaTransaction.getStore() === true;
}
