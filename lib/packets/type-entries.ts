import type { Outline, OutlineSection } from "./outline";
import { isNoneItem, isPlaceholder, trimmedSpan, type Span } from "./query";

/** A line of a section past its list marker and checkbox. */
export interface Entry extends Span {
  /** Inside a fenced code block. */
  code: boolean;
  /** The line is template text left in place (compared whole, marker included, as the templates write it). */
  template: boolean;
}

/** Any list marker (nested ones too), then an optional checkbox. */
const MARKER_RE = /^[ \t]*(?:(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$))?(?:\[[ xX]\][ \t]*)?/;

/**
 * Every written line of a section, whatever its shape: the inline text of a brief label
 * (`**Key interfaces:** SkillConfig`), bullets at any depth, numbered items and plain
 * paragraph lines, each without its marker; fenced code lines too (fence lines excluded).
 */
export function entriesOf(o: Outline, s: OutlineSection): Entry[] {
  const out: Entry[] = [];
  if (s.head && s.inlineStart !== null) {
    const sp = trimmedSpan(o.text, s.inlineStart, s.head.end);
    if (sp) out.push({ ...sp, code: false, template: isPlaceholder(o, sp.text) });
  }
  for (const l of s.lines) {
    if (l.fence) continue;
    const skip = l.fenced ? 0 : MARKER_RE.exec(l.text)![0].length;
    const sp = trimmedSpan(o.text, l.start + skip, l.end);
    if (sp) out.push({ ...sp, code: l.fenced, template: isPlaceholder(o, l.text) });
  }
  return out;
}

/**
 * Words people leave where the content should be: "(none)", TBD, TODO, "n/a", "…", "No
 * new types". Only Out of scope may be explicitly empty (Constraint 7); a Type Surface of
 * them lists no contract at all.
 */
const FILLER_RE =
  /^(?:[-–—?.…_*]+|\(?\s*(?:tb[dac]|todo|fixme|xxx|n\/?a|none|nothing|unknown|pending|later|placeholder|to be (?:defined|determined|decided|confirmed|written)|coming soon)\s*\)?[.!]?|(?:tb[dac]|todo|fixme|xxx)\b\s*[:—–-].*|no (?:new |public |changed? )?(?:types?|interfaces?|signatures?|contracts?|changes?)\b.*)$/i;

/**
 * What names a type or a signature: a code span with an identifier in it, `Name {`,
 * `fn(`, a declaration keyword followed by a name, a CamelCase or camelCase identifier,
 * or a qualified one (`Module.method`). Every alternative starts at a word boundary or a
 * backtick and cannot run across words, so a pasted minified line stays linear.
 */
const NAMES_TYPE_RE = new RegExp(
  [
    "`[^`A-Za-z_$\\n]*[A-Za-z_$][^`\\n]*`",
    "\\b[A-Za-z_$][\\w$]*(?:<[^<>\\n]*>)?\\s*\\{",
    "\\b[A-Za-z_$][\\w$]*\\(",
    "\\b(?:interface|type|class|enum|struct|trait|record|protocol|fn|func|def)\\s+[A-Za-z_$]",
    "\\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\\b",
    "\\b[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*\\b",
    "\\b[A-Za-z_$][\\w$]+\\.[A-Za-z_$][\\w$]+",
    "\\b[A-Za-z_$][\\w$]*::[A-Za-z_$]",
    "\\b[A-Z][\\w$]*\\s+[({]",
  ].join("|"),
);

/** A written entry that is not filler or template text ("No new types: reuses `Session`" names one, so it counts). */
export function isRealEntry(e: Entry): boolean {
  if (e.template || isNoneItem(e.text)) return false;
  return !FILLER_RE.test(e.text) || NAMES_TYPE_RE.test(e.text);
}

/** Whether a section holds anything but filler and template text. */
export function hasRealEntry(o: Outline, s: OutlineSection): boolean {
  return entriesOf(o, s).some(isRealEntry);
}

/**
 * Whether a Type Surface (or a brief's Key interfaces) holds the durable spine: at least
 * one real entry that names a type or a signature.
 */
export function namesTypes(o: Outline, s: OutlineSection): boolean {
  return entriesOf(o, s).some((e) => isRealEntry(e) && NAMES_TYPE_RE.test(e.text));
}
