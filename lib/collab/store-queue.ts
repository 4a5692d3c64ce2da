/**
 * One document's stores one at a time, and only the newest of those waiting. Hocuspocus, once a
 * document's maximum debounce has passed, starts a store for every update that arrives while a
 * store runs; each writes the whole document, so under a fast writer they pile up and the
 * server stops keeping up (seen at a keystroke every 2 ms). A store asked for later carries a
 * newer state (a Yjs document only grows), so one that is still waiting when a later one is
 * asked for is skipped: at most one runs and one waits per document.
 */
export interface StoreQueue<A> {
  /** Runs `store(arg)` after the document's running store, unless a later one is asked for first; true when it ran. */
  run(key: string, arg: A): Promise<boolean>;
}

export function storeQueue<A>(store: (key: string, arg: A) => Promise<void>): StoreQueue<A> {
  const slots = new Map<string, { tail: Promise<unknown>; asked: number }>();
  return {
    async run(key, arg) {
      const slot = slots.get(key) ?? { tail: Promise.resolve(), asked: 0 };
      slots.set(key, slot);
      const mine = ++slot.asked;
      const turn = slot.tail.then(async () => {
        if (slot.asked !== mine) return false;
        await store(key, arg);
        return true;
      });
      slot.tail = turn.catch(() => undefined);
      try {
        return await turn;
      } finally {
        // The last one asked for leaves nothing behind.
        if (slot.asked === mine && slots.get(key) === slot) slots.delete(key);
      }
    },
  };
}
