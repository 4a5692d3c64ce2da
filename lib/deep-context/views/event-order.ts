/**
 * The event timeline in time order. Hosts append events when they are written, not when they
 * happened (a graph_convergence of iteration 1 can land after the sweep of iteration 2), so
 * log order is not time order. Instants are compared, not strings (`+02:00` offsets, `Z`,
 * fractions of a second); ties keep log order.
 */

/**
 * `events` sorted by their `timestamp` instant, stable. An event without a readable timestamp
 * takes the instant of the closest timed event before it in the log (the start of time when
 * there is none), so it stays beside the events it was written with.
 */
export function eventsInTimeOrder<E extends { timestamp?: unknown }>(events: readonly E[]): E[] {
  const keys = new Float64Array(events.length);
  let previous = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < events.length; i++) {
    const ts = events[i]!.timestamp;
    const t = typeof ts === "string" ? Date.parse(ts) : Number.NaN;
    if (Number.isFinite(t)) previous = t;
    keys[i] = previous;
  }
  const order = Array.from(keys.keys()).sort((a, b) => keys[a]! - keys[b]! || a - b);
  return order.map((i) => events[i]!);
}
