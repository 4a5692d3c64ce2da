import { anchor, type FindingFactory } from "./findings";
import type { Outline } from "./outline";
import { sectionsOf, valueOf } from "./query";
import { NAMED_SYMBOL_RE } from "./smell-rules";
import { entriesOf } from "./type-entries";
import type { PacketFinding } from "./types";

export const BRIEF_CATEGORIES = ["bug", "enhancement", "refactor"] as const;

/** Words people use for a category, mapped to the one the brief accepts. */
const CATEGORY_ALIASES: Record<string, string> = {
  fix: "bug",
  bugfix: "bug",
  defect: "bug",
  feature: "enhancement",
  feat: "enhancement",
  improvement: "enhancement",
  refactoring: "refactor",
  cleanup: "refactor",
};

/**
 * The agent brief's extra BLOCK gates (references/agent-brief.md): a routable Category,
 * the Current/Desired delta, and Key interfaces that survive file moves. (Out of scope
 * and independent acceptance criteria are checked with the other sections.)
 */
export function briefFindings(o: Outline, at: FindingFactory): PacketFinding[] {
  return [...categoryFindings(o, at), ...deltaFindings(o, at), ...keyInterfaceFindings(o, at)];
}

function categoryFindings(o: Outline, at: FindingFactory): PacketFinding[] {
  const v = valueOf(o, "category");
  const allowed = BRIEF_CATEGORIES.join(" | ");
  if (!v.first) {
    const where = v.head ? { offset: v.head.start, length: v.head.end - v.head.start } : anchor(o);
    return [
      at({
        rule: "brief-category",
        tier: "BLOCK",
        message: v.present ? `**Category:** is empty: set it to ${allowed}; the receiving agent routes on it.` : `No **Category:** line: add "**Category:** ${allowed}" (one of them); the receiving agent routes on it.`,
        ...where,
      }),
    ];
  }
  const word = v.first.text
    .replace(/^[`*_]+|[`*_.]+$/g, "")
    .trim()
    .toLowerCase();
  if ((BRIEF_CATEGORIES as readonly string[]).includes(word)) return [];
  const alias = CATEGORY_ALIASES[word];
  return [
    at({
      rule: "brief-category",
      tier: "BLOCK",
      message: `**Category:** "${v.first.text}" is not one of ${allowed}: the receiving agent routes on it.`,
      offset: v.first.offset,
      length: v.first.length,
      ...(alias ? { suggestion: alias } : {}),
    }),
  ];
}

function deltaFindings(o: Outline, at: FindingFactory): PacketFinding[] {
  const out: PacketFinding[] = [];
  for (const [key, label] of [
    ["current-behavior", "**Current behavior:**"],
    ["desired-behavior", "**Desired behavior:**"],
  ] as const) {
    const v = valueOf(o, key);
    if (v.hasContent) continue;
    out.push(
      at({
        rule: "brief-current-desired",
        tier: "BLOCK",
        message: v.present
          ? `${label} has no content (empty, or still the template placeholder): without both the current and the desired behaviour the agent cannot verify the delta.`
          : `No ${label} section: without both the current and the desired behaviour the agent cannot verify the delta.`,
        ...(v.head ? { offset: v.head.start, length: v.head.end - v.head.start } : anchor(o)),
      }),
    );
  }
  return out;
}

const CODE_EXT = /\.(?:ts|tsx|js|jsx|mjs|cjs|py|go|rs|java|kt|rb|php|cs|c|cc|cpp|h|hpp|swift|md|json|ya?ml|toml|sql|css|scss|html|sh)$/i;

/**
 * A Key interfaces entry is a path when what it leads with (its first code span, or its
 * first word) is one: a file name with an extension, or a slash-separated location
 * (`src/auth/`, `./config`, `lib/session.ts`). Mentions later in the line are narrative.
 */
export function isPathLike(token: string): boolean {
  const t = token.trim();
  if (!t || /[\s<>{}(),:;|]/.test(t)) return false;
  if (CODE_EXT.test(t)) return true;
  if (!/[\\/]/.test(t)) return false;
  return /[\\/]$/.test(t) || /^(?:\.{1,2}[\\/]|[\\/]|~[\\/])/.test(t) || /\.[A-Za-z0-9]{1,5}$/.test(t) || /^(?:src|lib|app|packages|pkg|cmd|internal|tests?|scripts|bin)[\\/]/.test(t);
}

const LEAD_RE = /^(`[^`]+`|\S+)/;

/** An indented list item: a detail under an entry (where it lives, a note), not an interface of its own. */
function isNestedItem(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]+(?:[-*+]|\d{1,9}[.)])[ \t]/.test(text.slice(lineStart, offset + 1));
}

/**
 * Every Key interfaces entry is checked, however it is written: the inline value after the
 * label (`**Key interfaces:** \`src/config.ts\``), top-level bullets, numbered items and
 * plain lines. Fenced code is a signature, not an entry, and an indented item is a detail
 * of the entry above it.
 */
function keyInterfaceFindings(o: Outline, at: FindingFactory): PacketFinding[] {
  const out: PacketFinding[] = [];
  const bugBrief = /^`?bug`?$/i.test(valueOf(o, "category").first?.text ?? "");
  for (const s of sectionsOf(o, "key-interfaces")) {
    for (const e of entriesOf(o, s)) {
      if (e.code || isNestedItem(o.text, e.offset)) continue;
      const m = LEAD_RE.exec(e.text);
      if (!m) continue;
      const lead = m[1]!;
      const inner = lead.startsWith("`") ? lead.slice(1, -1) : lead.replace(/[*_]/g, "");
      if (!isPathLike(inner)) continue;
      // The seed lets a bug-fix brief cite a path when it also names the type or function.
      if (bugBrief && NAMED_SYMBOL_RE.test(e.text.slice(lead.length))) continue;
      out.push(
        at({
          rule: "brief-key-interfaces-paths",
          tier: "BLOCK",
          message: `Key interface "${inner}" is a file path: name the type, function or contract instead (paths go in Files Touched).`,
          offset: e.offset,
          length: lead.length,
        }),
      );
    }
  }
  return out;
}
