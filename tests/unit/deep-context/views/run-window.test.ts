import { describe, expect, it } from "vitest";
import { runWindowFromParams, sliceOf, windowOf, windowSteps } from "../../../../lib/deep-context/views/run-window";

describe("windows of a run's long lists", () => {
  it("shows the newest items by default, and any position clamped to the list", () => {
    expect(windowOf(200_036, undefined, 200)).toEqual({ offset: 199_836, count: 200, total: 200_036, size: 200 });
    expect(windowOf(200_036, 0, 200)).toEqual({ offset: 0, count: 200, total: 200_036, size: 200 });
    expect(windowOf(200_036, 10_000_000, 200).offset).toBe(199_836);
    expect(windowOf(50, undefined, 200)).toEqual({ offset: 0, count: 50, total: 50, size: 200 });
    expect(windowOf(0, 3, 200)).toEqual({ offset: 0, count: 0, total: 0, size: 200 });
    expect(sliceOf(["a", "b", "c", "d"], windowOf(4, 1, 2))).toEqual(["b", "c"]);
  });

  it("steps to the windows around one, and nowhere past the ends", () => {
    expect(windowSteps(windowOf(1000, 400, 200))).toEqual({ first: 0, previous: 200, next: 600, last: 800 });
    expect(windowSteps(windowOf(1000, undefined, 200))).toEqual({ first: 0, previous: 600, next: null, last: null });
    expect(windowSteps(windowOf(1000, 0, 200))).toEqual({ first: null, previous: null, next: 200, last: 800 });
    expect(windowSteps(windowOf(1000, 100, 200))).toEqual({ first: 0, previous: 0, next: 300, last: 800 });
  });

  it("reads positions from page parameters, ignoring what is not an offset", () => {
    expect(runWindowFromParams({ events: "400", iterations: "3", variant: "stored" })).toEqual({ events: 400, iterations: 3 });
    expect(runWindowFromParams({ events: "-1", iterations: "12" })).toEqual({ events: undefined, iterations: 12 });
    expect(runWindowFromParams({ events: ["1", "2"], iterations: "x" })).toEqual({ events: undefined, iterations: undefined });
    expect(runWindowFromParams({})).toEqual({ events: undefined, iterations: undefined });
  });
});
