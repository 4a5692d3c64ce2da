/**
 * The compare request as a URL carries it (`?base=…&changes=1&section=…&offset=…&limit=…`).
 * Zod only, so the API contract (lib/deep-context/schemas.ts), which the browser loads, can
 * use it without the comparison itself.
 */
import { z } from "zod";

export const COMPARE_SECTIONS = ["added", "dropped", "changed", "unchanged"] as const;
export type CompareSection = (typeof COMPARE_SECTIONS)[number];

export type BaselineRef = { kind: "run"; runId: string } | { kind: "iteration"; iteration: number };

/** The largest window of one list a request may ask for. */
export const MAX_COMPARE_LIMIT = 500;

const BASELINE = /^(?:run:([A-Za-z0-9_-]{1,64})|iter:([1-9]\d{0,5}))$/;

export function parseBaselineRef(text: string): BaselineRef | null {
  const m = BASELINE.exec(text.trim());
  if (!m) return null;
  return m[1] !== undefined ? { kind: "run", runId: m[1] } : { kind: "iteration", iteration: Number(m[2]) };
}

export function formatBaselineRef(ref: BaselineRef): string {
  return ref.kind === "run" ? `run:${ref.runId}` : `iter:${ref.iteration}`;
}

const intParam = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** The compare request in its URL form (`?base=…&changes=1&section=…&offset=…&limit=…`). */
export const compareQuerySchema = z
  .object({
    base: z
      .string()
      .trim()
      .max(80)
      .transform((v, ctx) => {
        const ref = parseBaselineRef(v);
        if (ref) return ref;
        ctx.addIssue({ code: "custom", message: "give run:<runId> or iter:<N> (N ≥ 1)" });
        return z.NEVER;
      })
      .describe("baseline: run:<runId> (another run of the same project) or iter:<N> (this run as it stood after iteration N)"),
    changes: z
      .enum(["", "0", "1", "true", "false"])
      .default("")
      .transform((v) => v === "1" || v === "true")
      .describe("changes only: 1 leaves unchanged units and unchanged signals out"),
    section: z.enum(COMPARE_SECTIONS).optional().describe("the one list to page through; absent: the first window of every list"),
    offset: intParam(0, 10_000_000).default(0).describe("index of the first row of `section`"),
    limit: intParam(1, MAX_COMPARE_LIMIT).default(100).describe("rows per list"),
  })
  .transform((q) => ({ baseline: q.base, changesOnly: q.changes, section: q.section ?? null, offset: q.offset, limit: q.limit }))
  .describe("a run comparison request");
export type CompareRequest = z.output<typeof compareQuerySchema>;
