import { isBlank, splitLines, type Line } from "./lines";
import { BRIEF_SECTION_KEYS, keyFor, knownKey, uniqueKeys } from "./section-keys";
import type { PacketKind } from "./types";

/**
 * The structure of a packet with offsets into the text as given: what the parser turns
 * into a PacketDocument and what the checks walk. Tolerant by design: heading case,
 * `**Label:**` vs `**Label**:`, CRLF and extra blank lines are all accepted, and text that
 * fits nowhere becomes an untitled section rather than being dropped.
 */
export interface OutlineField {
  key: string;
  label: string;
  /** The label line and its continuation lines. */
  lines: Line[];
  /** Offset where the value starts on the label line (after the colon and spaces). */
  valueStart: number;
}

export interface OutlineSection {
  key: string;
  title: string;
  /** The `### Title` / `**Title:**` line; null for the untitled section. */
  head: Line | null;
  /** Offset where text on the label line starts (briefs: `**Out of scope:** (none)`); null when none. */
  inlineStart: number | null;
  /** Lines after the head (for the untitled section: its own lines, possibly with gaps). */
  lines: Line[];
  /** From the head to the next section or the trailing text: the block the Files Touched strip removes. */
  start: number;
  end: number;
}

export interface Outline {
  text: string;
  kind: PacketKind;
  /** The `## Context Packet` / `## Agent Brief` line; null when the text has none. */
  heading: Line | null;
  lines: Line[];
  preamble: Line[];
  fields: OutlineField[];
  sections: OutlineSection[];
  trailing: Line[];
  /** For each line, the index of the section it belongs to, or -1. */
  owner: Int32Array;
}

const KIND_HEADING_RE = /^\uFEFF? {0,3}##[ \t]+(context packet|agent brief)[ \t]*#*[ \t]*$/i;
const ATX_RE = /^\uFEFF? {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$/;
/** `**Label**: value` or `**Label:** value`; the label never contains `*`. */
export const LABEL_RE = /^\*\*([^*\n]+?)(?:\*\*[ \t]*:|:[ \t]*\*\*)[ \t]*(.*)$/;

function atx(l: Line): { level: number; title: string } | null {
  if (l.fenced) return null;
  const m = ATX_RE.exec(l.text);
  return m ? { level: m[1]!.length, title: m[2]! } : null;
}

export function labelOf(l: Line): { label: string; rest: string; restStart: number } | null {
  if (l.fenced) return null;
  const m = LABEL_RE.exec(l.text);
  if (!m) return null;
  const rest = m[2]!;
  return { label: m[1]!.trim(), rest, restStart: l.start + m[0].length - rest.length };
}

/** Kind from the heading; without one, a `**Category:**` line marks a brief. */
function detectKind(lines: Line[]): { kind: PacketKind; heading: number } {
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.fenced) continue;
    const m = KIND_HEADING_RE.exec(l.text);
    if (m) return { kind: m[1]!.toLowerCase() === "agent brief" ? "brief" : "packet", heading: i };
  }
  const brief = lines.some((l) => !l.fenced && /^\*\*category(?::\*\*|\*\*[ \t]*:)/i.test(l.text));
  return { kind: brief ? "brief" : "packet", heading: -1 };
}

type Start = { title: string; inlineStart: number | null } | "trailing" | null;

/** Whether a line opens a section, ends the packet, or neither. */
function classify(l: Line, kind: PacketKind): Start {
  const h = atx(l);
  if (h) {
    if (h.level <= 2) {
      // A known section written one level too high is still that section; any other
      // level-1/2 heading (another document part) ends the packet.
      return h.level === 2 && knownKey(h.title) ? { title: h.title, inlineStart: null } : "trailing";
    }
    if (h.level === 3 && (kind === "packet" || knownKey(h.title))) return { title: h.title, inlineStart: null };
    return null;
  }
  if (kind === "brief") {
    const lab = labelOf(l);
    if (lab) return { title: lab.label, inlineStart: lab.rest.trim() ? lab.restStart : null };
  }
  return null;
}

export function outline(text: string): Outline {
  const lines = splitLines(text);
  const { kind, heading } = detectKind(lines);
  const bodyStart = heading + 1;
  const starts: (Start | undefined)[] = new Array(lines.length);
  let trailingAt = lines.length;
  for (let i = bodyStart; i < lines.length; i++) {
    const c = classify(lines[i]!, kind);
    if (c === "trailing") {
      trailingAt = i;
      break;
    }
    starts[i] = c;
  }

  const fields: OutlineField[] = [];
  const loose: Line[] = [];
  let i = bodyStart;
  if (kind === "brief") i = briefFields(lines, i, trailingAt, fields, starts);
  let current: OutlineField | null = null;
  for (; i < trailingAt && !starts[i]; i++) {
    const l = lines[i]!;
    if (isBlank(l)) {
      current = null;
      continue;
    }
    const lab = kind === "packet" ? labelOf(l) : null;
    if (lab) {
      current = { key: keyFor(lab.label), label: lab.label, lines: [l], valueStart: lab.restStart };
      fields.push(current);
    } else if (current) {
      current.lines.push(l);
    } else {
      loose.push(l);
    }
  }

  const sections: OutlineSection[] = [];
  if (loose.length) sections.push({ key: "untitled", title: "", head: null, inlineStart: null, lines: loose, start: loose[0]!.start, end: loose[loose.length - 1]!.end });
  for (; i < trailingAt; i++) {
    const s = starts[i];
    if (!s || s === "trailing") continue;
    let j = i + 1;
    while (j < trailingAt && !starts[j]) j++;
    const end = j < lines.length ? lines[j]!.start : text.length;
    sections.push({ key: keyFor(s.title), title: s.title, head: lines[i]!, inlineStart: s.inlineStart, lines: lines.slice(i + 1, j), start: lines[i]!.start, end });
    i = j - 1;
  }

  const owner = new Int32Array(lines.length).fill(-1);
  sections.forEach((s, n) => {
    if (s.head) owner[s.head.index] = n;
    for (const l of s.lines) owner[l.index] = n;
  });

  return {
    text,
    kind,
    heading: heading >= 0 ? lines[heading]! : null,
    lines,
    preamble: heading >= 0 ? lines.slice(0, heading) : [],
    fields: uniqueKeys(fields),
    sections: uniqueKeys(sections),
    trailing: lines.slice(trailingAt),
    owner,
  };
}

/**
 * A brief's fields are the label lines of its first paragraph (Category, Summary) up to
 * the first one that opens a block: a known section, or a label followed by text lines.
 * Returns the index of the first line that is not a field.
 */
function briefFields(lines: Line[], from: number, to: number, fields: OutlineField[], starts: readonly (Start | undefined)[]): number {
  let i = from;
  while (i < to && isBlank(lines[i]!)) i++;
  const first = i;
  for (; i < to; i++) {
    const l = lines[i]!;
    const lab = labelOf(l);
    if (!lab || BRIEF_SECTION_KEYS.has(keyFor(lab.label))) break;
    const next = lines[i + 1];
    // A heading right after the label opens the next section, not this label's body: the
    // label has no text lines, so it is a field (as it is when rendered, followed by a blank line).
    if (i + 1 < to && next && !isBlank(next) && !labelOf(next) && !starts[i + 1]) break;
    fields.push({ key: keyFor(lab.label), label: lab.label, lines: [l], valueStart: lab.restStart });
    if (i + 1 >= to || !next || isBlank(next)) {
      i++;
      break;
    }
  }
  return fields.length ? i : first;
}
