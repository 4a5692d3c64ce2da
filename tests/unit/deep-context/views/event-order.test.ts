import { describe, expect, it } from "vitest";
import { eventsInTimeOrder } from "../../../../lib/deep-context/views/event-order";

const ev = (id: string, timestamp?: unknown) => ({ id, ...(timestamp === undefined ? {} : { timestamp }) });

describe("eventsInTimeOrder", () => {
  it("sorts by instant: a graph_convergence written after the next sweep goes after it", () => {
    const log = [ev("sweep 1", "2026-06-10T16:00:17Z"), ev("graph 1", "2026-06-10T16:05:30Z"), ev("sweep 2", "2026-06-10T16:04:53Z"), ev("graph 2", "2026-06-10T16:22:00Z")];
    expect(eventsInTimeOrder(log).map((e) => e.id)).toEqual(["sweep 1", "sweep 2", "graph 1", "graph 2"]);
  });

  it("keeps log order for ties, however many", () => {
    const log = Array.from({ length: 50 }, (_, i) => ev(`e${i}`, i % 2 ? "2026-06-10T16:00:00Z" : "2026-06-10T15:00:00Z"));
    const sorted = eventsInTimeOrder(log).map((e) => e.id);
    expect(sorted.slice(0, 25)).toEqual(log.filter((_, i) => i % 2 === 0).map((e) => e.id));
    expect(sorted.slice(25)).toEqual(log.filter((_, i) => i % 2 === 1).map((e) => e.id));
  });

  it("compares instants, not strings: offsets and fractions of a second", () => {
    const log = [ev("a", "2026-06-10T18:00:00+02:00"), ev("b", "2026-06-10T15:30:00Z"), ev("c", "2026-06-10T15:30:00.5Z")];
    // a is 16:00Z: after b and c, though its string sorts after theirs anyway; b before c by half a second.
    expect(eventsInTimeOrder(log).map((e) => e.id)).toEqual(["b", "c", "a"]);
    const reversed = [ev("late", "2026-06-10T17:00:00+02:00"), ev("early", "2026-06-10T15:30:00Z")];
    expect(eventsInTimeOrder(reversed).map((e) => e.id)).toEqual(["late", "early"]);
  });

  it("keeps an event without a readable timestamp beside the timed event before it", () => {
    const log = [ev("t3", "2026-06-10T03:00:00Z"), ev("untimed", undefined), ev("t1", "2026-06-10T01:00:00Z"), ev("garbled", "yesterday"), ev("t2", "2026-06-10T02:00:00Z")];
    expect(eventsInTimeOrder(log).map((e) => e.id)).toEqual(["t1", "garbled", "t2", "t3", "untimed"]);
    expect(eventsInTimeOrder([ev("first"), ev("second", "2026-06-10T01:00:00Z")]).map((e) => e.id)).toEqual(["first", "second"]);
  });

  it("returns a new array and leaves the log as it was", () => {
    const log = [ev("b", "2026-06-10T02:00:00Z"), ev("a", "2026-06-10T01:00:00Z")];
    const sorted = eventsInTimeOrder(log);
    expect(sorted).not.toBe(log);
    expect(log.map((e) => e.id)).toEqual(["b", "a"]);
  });
});
