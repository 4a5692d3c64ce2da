/**
 * Windows of the lists of a run that grow with its state log (events, iterations, the loop
 * replay, warnings): a page or an API answer carries one window and the totals, never the
 * whole list, so a log of hundreds of thousands of lines still makes a small page. A window's
 * position is a URL parameter (`events=<offset>`, `iterations=<offset>`), so it can be shared.
 */
import { z } from "zod";

/** Events per window: enough to read a sweep's dispatches and verdicts at a glance. */
export const EVENTS_PER_WINDOW = 200;
/** Iterations per window (chart, replay, sibling timelines). */
export const ITERATIONS_PER_WINDOW = 200;
/** Warnings and corrupt lines listed by name; the totals say how many there are. */
export const LISTED_WARNINGS = 200;
/** Event names kept per iteration entry (one run can hold any number of events); `eventCount` says how many. */
export const EVENT_NAMES_PER_ENTRY = 50;

/** Entries with at most EVENT_NAMES_PER_ENTRY event names each, and their count. */
export function withEventCounts<E extends { events: string[] }>(entries: readonly E[]): (E & { eventCount: number })[] {
  return entries.map((e) => ({ ...e, events: e.events.slice(0, EVENT_NAMES_PER_ENTRY), eventCount: e.events.length }));
}

export interface ListWindow {
  /** Index of the first item shown. */
  offset: number;
  /** Items shown. */
  count: number;
  /** Items in the whole list. */
  total: number;
  /** Items per window. */
  size: number;
}

/**
 * The window of `size` items of a list of `total` starting at `from` (clamped to the list),
 * or the last window (the newest items) when `from` is absent.
 */
export function windowOf(total: number, from: number | undefined, size: number): ListWindow {
  const last = Math.max(0, total - size);
  const offset = from === undefined ? last : Math.min(Math.max(0, Math.floor(from)), last);
  return { offset, count: Math.min(size, total - offset), total, size };
}

export function sliceOf<T>(items: readonly T[], w: ListWindow): T[] {
  return items.slice(w.offset, w.offset + w.count);
}

/** Offsets of the windows around `w`: null where there is nothing further that way. */
export function windowSteps(w: ListWindow): { first: number | null; previous: number | null; next: number | null; last: number | null } {
  const lastOffset = Math.max(0, w.total - w.size);
  return {
    first: w.offset > 0 ? 0 : null,
    previous: w.offset > 0 ? Math.max(0, w.offset - w.size) : null,
    next: w.offset < lastOffset ? Math.min(lastOffset, w.offset + w.size) : null,
    last: w.offset < lastOffset ? lastOffset : null,
  };
}

const offsetParam = z.coerce.number().int().min(0).max(1_000_000_000).optional();

/** The window positions of a run page or `GET …/runs/:runId` (absent: the newest items). */
export const runWindowQuerySchema = z.object({
  events: offsetParam.describe("index of the first event shown (absent: the last EVENTS_PER_WINDOW)"),
  iterations: offsetParam.describe("index of the first iteration shown (absent: the last ITERATIONS_PER_WINDOW)"),
});
export type RunWindowQuery = z.output<typeof runWindowQuerySchema>;

/** The window positions from page search params; a value that is not an offset is ignored (the newest window). */
export function runWindowFromParams(sp: Record<string, string | string[] | undefined>): RunWindowQuery {
  const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : undefined);
  const parsed = runWindowQuerySchema.safeParse({ events: one(sp.events), iterations: one(sp.iterations) });
  if (parsed.success) return parsed.data;
  const each = (k: "events" | "iterations") => {
    const r = offsetParam.safeParse(one(sp[k]));
    return r.success ? r.data : undefined;
  };
  return { events: each("events"), iterations: each("iterations") };
}
