import { describe, expect, it } from "vitest";
import { storeQueue } from "../../../lib/collab/store-queue";

/** A store whose calls end only when the test says so. */
function gatedStore() {
  const calls: { key: string; arg: number; end: () => void }[] = [];
  let running = 0;
  let most = 0;
  const store = (key: string, arg: number) =>
    new Promise<void>((resolve) => {
      running++;
      most = Math.max(most, running);
      calls.push({
        key,
        arg,
        end: () => {
          running--;
          resolve();
        },
      });
    });
  return { store, calls, most: () => most };
}

const settle = () => new Promise((r) => setImmediate(r));

describe("storeQueue", () => {
  it("runs one store of a document at a time and skips those a later one overtook while they waited", async () => {
    const g = gatedStore();
    const q = storeQueue(g.store);
    const first = q.run("doc", 1);
    await settle();
    expect(g.calls.map((c) => c.arg)).toEqual([1]);
    // 200 updates arrive while the first store runs: only the newest of them is stored next.
    const waiting = Array.from({ length: 200 }, (_, i) => q.run("doc", i + 2));
    await settle();
    expect(g.calls).toHaveLength(1);
    g.calls[0]!.end();
    expect(await first).toBe(true);
    await settle();
    expect(g.calls.map((c) => c.arg)).toEqual([1, 201]);
    g.calls[1]!.end();
    const ran = await Promise.all(waiting);
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect(ran.at(-1)).toBe(true);
    expect(g.most()).toBe(1);
  });

  it("keeps documents apart, and goes on after a store that failed", async () => {
    const seen: string[] = [];
    const q = storeQueue(async (key: string, arg: number) => {
      seen.push(`${key}:${arg}`);
      if (key === "a" && arg === 1) throw new Error("disk full");
    });
    await expect(q.run("a", 1)).rejects.toThrow("disk full");
    expect(await Promise.all([q.run("a", 2), q.run("b", 1)])).toEqual([true, true]);
    expect(seen).toEqual(["a:1", "a:2", "b:1"]);
  });
});
