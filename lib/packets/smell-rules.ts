import type { FindingFactory } from "./findings";
import type { Outline } from "./outline";
import { sectionsOf, valueOf } from "./query";
import { fileLineMatches, pathBulletMatches } from "./seed-regexes";
import type { PacketFinding } from "./types";

/**
 * Phase 4.5 smell tests: the seed's four regexes (the two that backtrack are matched by
 * equivalent linear scanners). The narrative ones skip the Files Touched block, which is
 * where paths belong ("locator-only, may rename").
 */
const LINE_REF_RE = /\b(line |on line )\d+\b/gi;
/** Also read by the Scope check (./header-rules), which leaves these paths to this rule. */
export const NARRATIVE_PATH_RE = /\b(src|lib|app)\/\S+/g;

const CLOSER: Record<string, string> = { ")": "(", "]": "[", "}": "{", ">": "<" };

/**
 * The path a NARRATIVE_PATH_RE match names: `\S+` also takes the prose around it (`(see
 * src/x.ts)`, `src/x.ts.`, `` `src/x.ts`, ``), so trailing punctuation, quotes and emphasis go, and
 * a closing bracket goes when the path does not open it (`src/fn(a).ts` keeps its own).
 */
export function narrativePath(match: string): string {
  let p = match;
  for (;;) {
    const last = p.slice(-1);
    if (p.length > 1 && /[.,;:!?'"`*_]/.test(last)) p = p.slice(0, -1);
    else if (last in CLOSER && p.split(last).length > p.split(CLOSER[last]!).length) p = p.slice(0, -1);
    else return p;
  }
}

/** A code span naming a type or function (`extractDescription`, `Session.refresh()`), not a path. */
export const NAMED_SYMBOL_RE = /`[A-Za-z_$][\w$.]*(?:\(\))?`|\([A-Za-z_$][\w$.]*(?:\(\))?(?:,\s*[A-Za-z_$][\w$.]*(?:\(\))?)*\)/;

export function smellFindings(o: Outline, at: FindingFactory): PacketFinding[] {
  const { text } = o;
  const out: PacketFinding[] = [];
  // The Files Touched block, as FORMATS.md's `/### Files Touched[\s\S]*?(?=\n### |\n## |$)/`
  // strips it, but found by the tolerant outline (heading case, a brief's bold label).
  const locator = sectionsOf(o, "files-touched").map((s) => [s.start, s.end] as const);
  const inLocator = (i: number) => locator.some(([a, b]) => i >= a && i < b);

  for (const m of fileLineMatches(text)) {
    out.push(
      at({
        rule: "file-line-ref",
        tier: "BLOCK",
        message: `file:line reference "${m.text}": line numbers go stale on the first edit. Name the type or function instead (paths belong in Files Touched, without line numbers).`,
        offset: m.index,
        length: m.text.length,
        suggestion: m.text.replace(/:\d+$/, ""),
      }),
    );
  }

  const bullets: [number, number][] = [];
  for (const m of pathBulletMatches(text)) {
    if (inLocator(m.index)) continue;
    bullets.push([m.index, m.index + m.text.length]);
    out.push(
      at({
        rule: "path-bullet-outside-files-touched",
        tier: "BLOCK",
        message: "Path-only bullet outside Files Touched: describe the type or function here, and list the path under Files Touched with its (Type, fn) annotation.",
        offset: m.index,
        length: m.text.length,
      }),
    );
  }

  for (const m of text.matchAll(LINE_REF_RE)) {
    out.push(
      at({
        rule: "line-number-ref",
        tier: "BLOCK",
        message: `Line-number reference "${m[0]}": it goes stale on the first edit. Remove it and name the type or function instead.`,
        offset: m.index,
        length: m[0].length,
        suggestion: "",
      }),
    );
  }

  // Durability exception: a bug brief may cite a path when it pairs it with a type or
  // function name on the same line.
  const bugBrief = o.kind === "brief" && /^`?bug`?$/i.test(valueOf(o, "category").first?.text ?? "");
  for (const m of text.matchAll(NARRATIVE_PATH_RE)) {
    const i = m.index;
    if (inLocator(i)) continue;
    // The BLOCK on a path-only bullet already covers its path.
    if (bullets.some(([a, b]) => i >= a && i < b)) continue;
    const p = narrativePath(m[0]);
    if (bugBrief && pairedWithSymbol(text, i, p)) continue;
    out.push(
      at({
        rule: "narrative-path",
        tier: "WARN",
        message: `Path "${p}" in narrative: paths rot when files move. Verify it belongs in Files Touched and name the type or module here.`,
        offset: i,
        length: p.length,
      }),
    );
  }
  return out;
}

function pairedWithSymbol(text: string, offset: number, match: string): boolean {
  const lineStart = text.lastIndexOf("\n", offset) + 1;
  const nl = text.indexOf("\n", offset);
  const line = text.slice(lineStart, nl === -1 ? text.length : nl);
  return NAMED_SYMBOL_RE.test(line.replace(match, ""));
}
