import type { Line } from "./lines";
import type { Outline, OutlineField, OutlineSection } from "./outline";
import { knownKey } from "./section-keys";
import { PLACEHOLDERS } from "./templates";

/** The first section with a canonical key ("out-of-scope"), however its title is spelled. */
export function sectionOf(o: Outline, key: string): OutlineSection | undefined {
  return o.sections.find((s) => s.head && knownKey(s.title) === key);
}

export function sectionsOf(o: Outline, key: string): OutlineSection[] {
  return o.sections.filter((s) => s.head && knownKey(s.title) === key);
}

export function fieldOf(o: Outline, key: string): OutlineField | undefined {
  return o.fields.find((f) => knownKey(f.label) === key);
}

/** A span of text in the markdown. */
export interface Span {
  offset: number;
  length: number;
  text: string;
}

/** The trimmed text of a line from `from` on, as a span; null when blank. */
export function trimmedSpan(text: string, from: number, to: number): Span | null {
  const raw = text.slice(from, to);
  const lead = raw.length - raw.trimStart().length;
  const t = raw.trim();
  return t ? { offset: from + lead, length: t.length, text: t } : null;
}

/**
 * A field's or section's value where a check needs one: the field's inline value, or the
 * section's first non-blank line (inline text of a brief label first). Returns the span
 * of that line and whether there is any content at all.
 */
export function valueOf(o: Outline, key: string): { present: boolean; head: Line | null; first: Span | null; hasContent: boolean } {
  const f = fieldOf(o, key);
  if (f) {
    const first = trimmedSpan(o.text, f.valueStart, f.lines[0]!.end) ?? firstContent(o.text, f.lines.slice(1));
    return { present: true, head: f.lines[0]!, first, hasContent: first !== null && !isPlaceholder(o, first.text) };
  }
  const s = sectionOf(o, key);
  if (s) {
    const first = (s.inlineStart !== null ? trimmedSpan(o.text, s.inlineStart, s.head!.end) : null) ?? firstContent(o.text, s.lines);
    return { present: true, head: s.head, first, hasContent: sectionHasContent(o, s) };
  }
  return { present: false, head: null, first: null, hasContent: false };
}

function firstContent(text: string, lines: Line[]): Span | null {
  for (const l of lines) {
    const sp = trimmedSpan(text, l.start, l.end);
    if (sp) return sp;
  }
  return null;
}

/** Template text left in place: not content, whatever it looks like. */
export function isPlaceholder(o: Outline, text: string): boolean {
  return PLACEHOLDERS[o.kind].has(text.trim());
}

/** `### Out of scope (none)`: the author wrote on the heading itself that the section is empty on purpose. */
export const headingSaysNone = (s: OutlineSection): boolean => /\(\s*none\s*\)/i.test(s.title);

/**
 * Anything besides blank lines, empty bullets or checkboxes, and template placeholders; a
 * "(none)" on the heading counts, as it would in the body. Whether that content is enough
 * is for each gate to say (Type Surface wants a type, see ./type-entries).
 */
export function sectionHasContent(o: Outline, s: OutlineSection): boolean {
  if (s.head && headingSaysNone(s)) return true;
  if (s.inlineStart !== null && !isPlaceholder(o, o.text.slice(s.inlineStart, s.head!.end))) return true;
  return s.lines.some((l) => l.text.replace(/^\s*(?:(?:[-*+]|\d{1,9}[.)])\s*)?(?:\[[ xX]\]\s*)?/, "").trim() !== "" && !isPlaceholder(o, l.text));
}

/** A top-level list item of a section: its line and where the item's text starts. */
export interface Item {
  line: Line;
  /** Offset after the list marker and any `[ ]` checkbox. */
  start: number;
  /** The item's text, trimmed at the end. */
  text: string;
  /** The marker as written, checkbox included ("- [ ] ", "2. "), for rewrites that add an item. */
  marker: string;
}

/** A bullet (`-*+`) or number (`1.`, `1)`) marker at most 3 columns in, then an optional `[ ]` checkbox. */
const ITEM_RE = /^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+|$)(\[[ xX]\][ \t]*)?/;

/** Leading whitespace in columns, tabs to the next multiple of 4 (as CommonMark counts them). */
function indentOf(text: string): number {
  let w = 0;
  for (const c of text) {
    if (c === " ") w++;
    else if (c === "\t") w += 4 - (w % 4);
    else break;
  }
  return w;
}

/**
 * A section's lines as a list: its top-level items, and the loose lines that belong to no
 * item (prose). Lines indented to an item's content (nested lists, details, wrapped text)
 * belong to that item and are neither, as in CommonMark: a nested detail bullet is not a
 * criterion or a Files Touched entry of its own. Unlike CommonMark, an unindented line
 * after an item is loose, not a lazy continuation: it reads as a line of its own.
 */
export function listOf(s: OutlineSection): { items: Item[]; loose: Line[] } {
  const items: Item[] = [];
  const loose: Line[] = [];
  // Content column of the current top-level item; -1 outside one.
  let content = -1;
  for (const l of s.lines) {
    if (l.fenced || l.text.trim() === "") continue;
    if (content >= 0 && indentOf(l.text) >= content) continue;
    const m = ITEM_RE.exec(l.text);
    if (!m) {
      content = -1;
      loose.push(l);
      continue;
    }
    const marker = m[0];
    const gap = m[3]!.length;
    content = m[1]!.length + m[2]!.length + (gap === 0 || gap > 4 ? 1 : gap);
    items.push({ line: l, start: l.start + marker.length, text: l.text.slice(marker.length).trimEnd(), marker });
  }
  return { items, loose };
}

export function itemsOf(s: OutlineSection): Item[] {
  return listOf(s).items;
}

/** Items with something written in them (not blank, not a template placeholder). */
export function criteriaOf(o: Outline, s: OutlineSection): Item[] {
  return itemsOf(s).filter((i) => i.text.trim() !== "" && !isPlaceholder(o, i.line.text));
}

export const isNoneItem = (text: string): boolean => /^\(?none\)?\.?$/i.test(text.trim());

/** Entries of every Files Touched section, "(none)" excluded. */
export function filesTouched(o: Outline): Item[] {
  return sectionsOf(o, "files-touched")
    .flatMap(itemsOf)
    .filter((i) => i.text.trim() && !isNoneItem(i.text));
}
