/**
 * `.coord/memory.yml` v2: the canonical, append-only memory event log (FORMATS §4).
 *
 * Reading reports every fault with the file, line and field, and keeps the valid events so one
 * bad event does not hide the rest. Writing only ever appends: the new event's YAML block is
 * inserted after the last existing event, so the bytes of every existing event (and comments)
 * stay exactly as they were. The result is parsed again and must equal the old events plus the
 * new one before anyone writes it.
 */
import { isDeepStrictEqual } from "node:util";
import { type Document, LineCounter, isSeq, parseDocument } from "yaml";
import { z } from "zod";
import { WorkbenchError } from "../core/errors";
import { MAX_NESTING } from "../core/fs/limits";
import { yamlNestingDepth } from "../core/fs/nesting";
import { HEX64 } from "./decision-record";
import { type CoordIssue, fieldName } from "./issues";
import { PROPOSAL_ID } from "./proposal";
import { isAwareTimestamp } from "./timestamp";

import { MEMORY_FILE } from "./memory-path";

export { MEMORY_FILE };
/** A memory log is text the size of a long document, never more. */
export const MAX_MEMORY_BYTES = 32 * 1024 * 1024;
/** YAML aliases a memory log may expand while being read: a real log has none; a few thousand is an alias bomb. */
const MAX_ALIAS_COUNT = 100;
export const EVENT_ID = /^M[1-9]\d*$/;
export const EVENT_TYPES = ["decision", "open_question", "resolution", "artifact", "execution", "lifecycle"] as const;

const nonBlank = (what: string) => z.string().regex(/\S/, `${what} must be a non-empty string`);
const timestamp = (what: string) => z.string().refine(isAwareTimestamp, `${what} must be an ISO 8601 date-time with a timezone`);
const eventId = z.string().regex(EVENT_ID, 'must be an event id "M<integer>"');

export const approvalSchema = z
  .strictObject({
    actor: z
      .string()
      .regex(/^human:\S+$/, "approval.actor must use the human: namespace")
      .describe('"human:<key_id>" who approved'),
    decision: z.literal("approve").describe('always "approve": only approvals are applied'),
    timestamp: timestamp("approval.timestamp").describe("when the human approved"),
    rationale: nonBlank("approval.rationale").describe("the human's reason"),
    affected_action_hash: z.string().regex(HEX64, "approval.affected_action_hash must be a lowercase SHA-256 hex digest").describe("hash of the approved proposal action"),
  })
  .describe("the recorded human approval that authorized the event");

export const memoryEventSchema = z
  .strictObject({
    event_id: eventId.describe('"M<integer>", monotonic, never reused'),
    event_type: z.enum(EVENT_TYPES).describe("decision, open_question, resolution, artifact, execution or lifecycle"),
    created_at: timestamp("created_at").describe("when the event was appended"),
    actor: nonBlank("actor").describe("human or provider-neutral role that appended it"),
    summary: nonBlank("summary").describe("the compact durable fact"),
    rationale: nonBlank("rationale").describe("why the event belongs in memory"),
    evidence_refs: z.array(nonBlank("evidence ref")).min(1, "evidence_refs must not be empty").describe("stable references supporting the fact (non-empty)"),
    supersedes: z.array(eventId).describe("older event ids this event makes non-current"),
    resolves: z.array(eventId).describe("open-question event ids this event resolves"),
    target_ref: nonBlank("target_ref").nullable().describe("event the event acts on; required for lifecycle events, else null when unused"),
    source_proposal_id: z.string().regex(PROPOSAL_ID, "source_proposal_id must be a lowercase UUID").describe("the proposal that authorized the event"),
    approval: approvalSchema,
  })
  .superRefine((e, ctx) => {
    if (e.event_type === "lifecycle" && e.target_ref === null) ctx.addIssue({ code: "custom", path: ["target_ref"], message: "target_ref is required for a lifecycle event" });
  })
  .describe("one append-only memory event");

const headerShape = {
  schema_version: z.literal(2).describe("always 2"),
  project: nonBlank("project").describe("project slug"),
  created_at: timestamp("created_at").describe("when the log was started"),
};

export const memoryDocSchema = z.strictObject({ ...headerShape, events: z.array(memoryEventSchema).describe("events in append order") }).describe(".coord/memory.yml v2");

const headerSchema = z.strictObject({ ...headerShape, events: z.array(z.unknown()).describe("events in append order") });

export type MemoryEvent = z.infer<typeof memoryEventSchema>;
export type MemoryDoc = z.infer<typeof memoryDocSchema>;
export type MemoryHeader = Omit<MemoryDoc, "events">;

export interface MemoryParse {
  /** The whole document when it is entirely valid, else null. */
  doc: MemoryDoc | null;
  /** The header when its fields are valid. */
  header: MemoryHeader | null;
  /** Every valid event, in file order, even when others are invalid. */
  events: MemoryEvent[];
  /** Index in the file of each entry of `events`. */
  positions: number[];
  /** How many entries the events list has, valid or not. */
  rawEventCount: number;
  errors: CoordIssue[];
}

function lineAt(doc: Document, lc: LineCounter, path: readonly PropertyKey[]): number | undefined {
  // The deepest node on the path that exists: a missing field points at the object lacking it.
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n) as (string | number)[], true);
    const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
    if (node && typeof node === "object" && range) return lc.linePos(range[0]).line;
  }
  return undefined;
}

/** Parses and validates memory.yml text; `file` names it in every issue. */
export function parseMemoryText(text: string, file = MEMORY_FILE): MemoryParse {
  const out: MemoryParse = { doc: null, header: null, events: [], positions: [], rawEventCount: 0, errors: [] };
  // The YAML parser and every walk of its result recurse per level: refuse deep text before parsing.
  if (yamlNestingDepth(text, MAX_NESTING) > MAX_NESTING) {
    out.errors.push({ file, message: `${file}: nested deeper than ${MAX_NESTING} levels; not read (a memory log is a flat list of events).` });
    return out;
  }
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length > 0) {
    for (const e of doc.errors) {
      const pos = e.linePos?.[0];
      out.errors.push({
        file,
        ...(pos ? { line: pos.line } : {}),
        message: `${file}: not valid YAML${pos ? ` at line ${pos.line}, column ${pos.col}` : ""} (${e.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "")})`,
      });
    }
    return out;
  }
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    out.errors.push({ file, message: `${file}: cannot be read as data (${e instanceof Error ? e.message : String(e)})` });
    return out;
  }
  const issue = (path: readonly PropertyKey[], message: string) => {
    const field = fieldName(path);
    const line = lineAt(doc, lc, path);
    out.errors.push({ file, ...(field ? { field } : {}), ...(line !== undefined ? { line } : {}), message: `${file}${line !== undefined ? `:${line}` : ""}: ${field ? `field "${field}": ` : ""}${message}` });
  };
  const header = headerSchema.safeParse(raw);
  if (!header.success) {
    for (const i of header.error.issues) issue(i.path, i.message);
  } else {
    out.header = { schema_version: header.data.schema_version, project: header.data.project, created_at: header.data.created_at };
  }
  const rawEvents = raw && typeof raw === "object" && Array.isArray((raw as { events?: unknown }).events) ? (raw as { events: unknown[] }).events : [];
  out.rawEventCount = rawEvents.length;
  rawEvents.forEach((ev, idx) => {
    const r = memoryEventSchema.safeParse(ev);
    if (r.success) {
      out.events.push(r.data);
      out.positions.push(idx);
    } else {
      for (const i of r.error.issues) issue(["events", idx, ...i.path], i.message);
    }
  });
  if (out.errors.length === 0 && out.header) out.doc = { ...out.header, events: out.events };
  return out;
}

/** Strict parse for writers: the document or UNREADABLE naming the first faults. */
export function parseMemoryStrict(text: string, file = MEMORY_FILE): MemoryDoc {
  const p = parseMemoryText(text, file);
  if (!p.doc) {
    throw new WorkbenchError(
      "UNREADABLE",
      `${file} is not a valid memory log: ${p.errors
        .slice(0, 3)
        .map((e) => e.message)
        .join("; ")}`,
      { errors: p.errors },
    );
  }
  return p.doc;
}

/** The next event id: one more than the highest ever used (ids are never reused). */
export function nextEventId(events: readonly { event_id: string }[]): string {
  let max = 0;
  for (const e of events) {
    const m = /^M(\d+)$/.exec(e.event_id);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return `M${max + 1}`;
}

/** A YAML double-quoted scalar; escapes whatever YAML does not allow raw (controls, C1, line separators). */
export function yamlQuote(s: string): string {
  if (!s.isWellFormed()) throw new WorkbenchError("INVALID_INPUT", "Text with a lone surrogate cannot be written to memory.yml.");
  return JSON.stringify(s).replace(/[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function list(key: string, items: readonly string[], pad: string, quote: boolean): string[] {
  if (items.length === 0) return [`${pad}${key}: []`];
  return [`${pad}${key}:`, ...items.map((i) => `${pad}  - ${quote ? yamlQuote(i) : i}`)];
}

/** The YAML block of one event as a sequence item whose `-` sits at column `indent`. */
export function eventBlock(e: MemoryEvent, indent: number): string {
  const dash = " ".repeat(indent);
  const pad = " ".repeat(indent + 2);
  const lines = [
    `${dash}- event_id: ${e.event_id}`,
    `${pad}event_type: ${e.event_type}`,
    `${pad}created_at: ${yamlQuote(e.created_at)}`,
    `${pad}actor: ${yamlQuote(e.actor)}`,
    `${pad}summary: ${yamlQuote(e.summary)}`,
    `${pad}rationale: ${yamlQuote(e.rationale)}`,
    ...list("evidence_refs", e.evidence_refs, pad, true),
    ...list("supersedes", e.supersedes, pad, false),
    ...list("resolves", e.resolves, pad, false),
    `${pad}target_ref: ${e.target_ref === null ? "null" : yamlQuote(e.target_ref)}`,
    `${pad}source_proposal_id: ${yamlQuote(e.source_proposal_id)}`,
    `${pad}approval:`,
    `${pad}  actor: ${yamlQuote(e.approval.actor)}`,
    `${pad}  decision: approve`,
    `${pad}  timestamp: ${yamlQuote(e.approval.timestamp)}`,
    `${pad}  rationale: ${yamlQuote(e.approval.rationale)}`,
    `${pad}  affected_action_hash: ${yamlQuote(e.approval.affected_action_hash)}`,
  ];
  return lines.join("\n") + "\n";
}

/** A whole memory.yml, for a log that does not exist yet (or has no event text to preserve). */
export function serializeMemory(doc: MemoryDoc): string {
  const head = [`schema_version: 2`, `project: ${yamlQuote(doc.project)}`, `created_at: ${yamlQuote(doc.created_at)}`];
  if (doc.events.length === 0) return [...head, "events: []"].join("\n") + "\n";
  return [...head, "events:"].join("\n") + "\n" + doc.events.map((e) => eventBlock(e, 2)).join("");
}

/** The text with the event inserted after the last existing one; nothing else changes. */
function insertEvent(text: string, event: MemoryEvent, doc: MemoryDoc): string {
  const lc = new LineCounter();
  const yd = parseDocument(text, { lineCounter: lc, uniqueKeys: true });
  const seq = yd.get("events", true);
  if (!isSeq(seq) || seq.items.length === 0 || !seq.range) {
    // No event text to preserve (`events: []` or empty): the whole file is written anew.
    return serializeMemory({ ...doc, events: [...doc.events, event] });
  }
  if (seq.flow) {
    // A flow list `[...]`: JSON is valid flow YAML, so the new event goes in before the `]`.
    const close = text.lastIndexOf("]", seq.range[1]);
    if (close < 0) throw new WorkbenchError("INTERNAL", "Cannot find the end of the events list.");
    return `${text.slice(0, close)}, ${JSON.stringify(event)}${text.slice(close)}`;
  }
  const indent = lc.linePos(seq.range[0]).col - 1;
  let at = seq.range[1];
  let lead = "";
  if (text[at - 1] !== "\n") {
    const nl = text.indexOf("\n", at);
    if (nl < 0) {
      at = text.length;
      lead = "\n";
    } else at = nl + 1;
  }
  return text.slice(0, at) + lead + eventBlock(event, indent) + text.slice(at);
}

/**
 * memory.yml text with one event appended. The existing text must be a valid log; the result is
 * re-parsed and must equal the old events plus `event` (and the same header), or INTERNAL.
 */
export function appendEventText(text: string, event: MemoryEvent, file = MEMORY_FILE): string {
  const valid = memoryEventSchema.safeParse(event);
  if (!valid.success) {
    const i = valid.error.issues[0]!;
    throw new WorkbenchError("INVALID_INPUT", `The new event is not valid: ${fieldName(i.path)}: ${i.message}`);
  }
  const doc = parseMemoryStrict(text, file);
  if (doc.events.some((e) => e.event_id === event.event_id)) throw new WorkbenchError("CONFLICT", `${file} already has an event ${event.event_id}.`);
  const next = insertEvent(text, valid.data, doc);
  const check = parseMemoryText(next, file);
  const expected: MemoryDoc = { ...doc, events: [...doc.events, valid.data] };
  if (!check.doc || !isDeepStrictEqual(check.doc, expected)) {
    throw new WorkbenchError("INTERNAL", `Appending to ${file} would not give the old events plus the new one; nothing was written.`, { errors: check.errors });
  }
  return next;
}
