import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { coalesce } from "../../../lib/core/coalesce";

describe("coalesce", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("runs at once for a signal after a quiet gap", () => {
    const action = vi.fn();
    const c = coalesce(action, 300);
    c.signal();
    expect(action).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(301);
    c.signal();
    expect(action).toHaveBeenCalledTimes(2);
  });

  it("runs once more after a signal that comes inside the gap (a plain throttle would drop it)", () => {
    const action = vi.fn();
    const c = coalesce(action, 300);
    c.signal(); // the seat file
    vi.advanceTimersByTime(200);
    c.signal(); // the state line, 200 ms later
    expect(action).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(99);
    expect(action).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(action).toHaveBeenCalledTimes(2);
  });

  it("folds a burst inside one gap into a single trailing call", () => {
    const action = vi.fn();
    const c = coalesce(action, 300);
    c.signal();
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(20);
      c.signal();
    }
    vi.advanceTimersByTime(1_000);
    expect(action).toHaveBeenCalledTimes(2);
  });

  it("does not run a scheduled call after cancel", () => {
    const action = vi.fn();
    const c = coalesce(action, 300);
    c.signal();
    c.signal();
    c.cancel();
    vi.advanceTimersByTime(1_000);
    expect(action).toHaveBeenCalledTimes(1);
  });
});
