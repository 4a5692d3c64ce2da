import { isPathLike } from "./brief-rules";
import type { FindingFactory } from "./findings";
import { imperativeOf, isImperativeVerb } from "./imperatives";
import type { Outline } from "./outline";
import { fieldOf, isPlaceholder, valueOf } from "./query";
import { NARRATIVE_PATH_RE } from "./smell-rules";
import type { PacketFinding } from "./types";

/** The first word of the Task, past leading emphasis or quotes ("**Refresh** sessions"). */
const FIRST_WORD_RE = /^[*_`"'(]*([A-Za-z][A-Za-z'-]*)/;

/**
 * The packet's header lines as the Output Format describes them: **Task** is a "one-line
 * behavioral description, verb-led" (COLLECT: "verb-led behavioral phrasing"), **Scope**
 * is "type names / module names — NOT file paths". Both WARN: the seed gates neither, but
 * a subject-led task or a path scope is what the durability rules rewrite.
 */
export function headerFindings(o: Outline, at: FindingFactory): PacketFinding[] {
  if (o.kind !== "packet") return [];
  return [...taskFindings(o, at), ...scopeFindings(o, at)];
}

function taskFindings(o: Outline, at: FindingFactory): PacketFinding[] {
  const task = valueOf(o, "task");
  // An empty task or the template's text is missing-task / template-placeholder already.
  if (!task.hasContent || !task.first) return [];
  const { text, offset, length } = task.first;
  const word = FIRST_WORD_RE.exec(text)?.[1] ?? "";
  if (word && isImperativeVerb(word)) return [];
  const base = word ? imperativeOf(word) : null;
  const at0 = text.indexOf(word);
  return [
    at({
      rule: "task-not-verb-led",
      tier: "WARN",
      message: word
        ? `**Task** starts with "${word}": lead with the behaviour the receiver delivers, as a verb ("Refresh expired sessions…", "Reject invitations past their expiry…").`
        : `**Task** does not start with a word: lead with the behaviour the receiver delivers, as a verb ("Refresh expired sessions…").`,
      offset,
      length,
      ...(base ? { suggestion: text.slice(0, at0) + capitalise(base, word) + text.slice(at0 + word.length) } : {}),
    }),
  ];
}

const capitalise = (w: string, like: string) => (/^[A-Z]/.test(like) ? w[0]!.toUpperCase() + w.slice(1) : w);

/** A Scope token: a code span, or a run without spaces or separators. */
const TOKEN_RE = /`[^`\n]+`|[^\s,;`]+/g;

/**
 * Scope names types and modules, not files. narrative-path already warns about src/, lib/
 * and app/ paths anywhere outside Files Touched; this catches the other paths (a file name
 * with an extension, `./config`, `packages/auth/`), so a token gets one warning, not two.
 */
function scopeFindings(o: Outline, at: FindingFactory): PacketFinding[] {
  const f = fieldOf(o, "scope");
  if (!f) return [];
  const out: PacketFinding[] = [];
  f.lines.forEach((l, i) => {
    const start = i === 0 ? f.valueStart : l.start;
    const line = o.text.slice(start, l.end);
    if (isPlaceholder(o, line)) return;
    for (const m of line.matchAll(TOKEN_RE)) {
      const raw = m[0];
      const code = raw.startsWith("`");
      const lead = code ? 0 : raw.length - raw.replace(/^[*_("']+/, "").length;
      const inner = code ? raw.slice(1, -1).trim() : raw.slice(lead).replace(/[*_)"'.,:!?]+$/, "");
      if (!/[A-Za-z0-9]/.test(inner) || !isPathLike(inner)) continue;
      if (new RegExp(NARRATIVE_PATH_RE.source).test(raw)) continue;
      out.push(
        at({
          rule: "scope-path",
          tier: "WARN",
          message: `Path "${inner}" in **Scope**: scope names types and modules, not files (paths rot when files move). Name the type or module here and list the file under Files Touched.`,
          offset: start + m.index + lead,
          length: code ? raw.length : inner.length,
        }),
      );
    }
  });
  return out;
}
