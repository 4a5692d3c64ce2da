import path from "node:path";

/** One child an _index.md links to, from a list item: `- [text](target) — hook`. */
export interface IndexLink {
  text: string;
  /** The link target as written. */
  target: string;
  /** Resolved path relative to the docs root (posix), or null when it escapes docs/. */
  resolved: string | null;
  kind: "section" | "file";
  /** The one-line hook after the link (continuation lines joined). */
  hook: string;
  /** 1-based line of the list item in the index. */
  line: number;
  /** The `## ...` heading the item sits under, e.g. "Sections" or "Content". */
  group: string | null;
}

export interface ParsedIndex {
  title: string | null;
  /** The `> ...` blockquote right under the title. */
  description: string;
  links: IndexLink[];
  /** Links that point outside docs/ (never followed). */
  escaping: IndexLink[];
  lineCount: number;
  /** Only template placeholders: `_(empty)_`, `<!-- TODO -->`, `{{VAR}}`, no links. */
  placeholderOnly: boolean;
  /** The first 30 lines: what the judge may read of a section index. */
  head: string;
}

const MD_LINK = /\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/;
const WIKI_LINK = /\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|([^\]]*))?\]\]/;
const LIST_ITEM = /^(\s*)[-*+]\s+(.*)$/;

function resolveTarget(indexDir: string, target: string): string | null {
  const joined = path.posix.normalize(path.posix.join(indexDir, target));
  if (joined === ".." || joined.startsWith("../") || path.posix.isAbsolute(target)) return null;
  return joined;
}

function classify(target: string): "section" | "file" | null {
  const clean = target.replace(/[?#].*$/, "");
  if (clean.endsWith("/") || clean.endsWith("/_index.md") || clean === "_index.md") return "section";
  if (/\.md$/i.test(clean)) return "file";
  return null;
}

/**
 * Parses an _index.md as MOC tools write it. `indexRel` is the index's path relative to
 * the docs root (e.g. `architecture/_index.md`).
 */
export function parseIndex(text: string, indexRel: string): ParsedIndex {
  const lines = text.split(/\r?\n/);
  const indexDir = path.posix.dirname(indexRel) === "." ? "" : path.posix.dirname(indexRel);
  const title = /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? null;
  const descLines: string[] = [];
  let seenTitle = false;
  for (const l of lines) {
    if (!seenTitle) {
      if (/^#\s/.test(l)) seenTitle = true;
      continue;
    }
    if (/^>\s?/.test(l)) descLines.push(l.replace(/^>\s?/, "").trim());
    else if (descLines.length > 0 || (l.trim() !== "" && !/^>/.test(l))) break;
  }
  const links: IndexLink[] = [];
  const escaping: IndexLink[] = [];
  let group: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const h = /^#{2,6}\s+(.*)$/.exec(line);
    if (h) {
      group = h[1]!.trim();
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (!item) continue;
    if (group && /suggested|not yet created/i.test(group)) continue;
    const body = item[2]!;
    // Every link in the item is a child (`[CLAUDE.md](./CLAUDE.md) / [AGENTS.md](./AGENTS.md)`);
    // they share the hook that follows the last one.
    const found: { text: string; target: string; end: number }[] = [];
    for (const m of body.matchAll(new RegExp(MD_LINK.source, "g"))) {
      if (!/^[a-z][a-z0-9+.-]*:/i.test(m[2]!)) found.push({ text: m[1]!, target: m[2]!, end: m.index! + m[0].length });
    }
    for (const m of body.matchAll(new RegExp(WIKI_LINK.source, "g"))) {
      const name = m[1]!.trim();
      const target = name.endsWith("/") ? name : /\.md$/i.test(name) ? name : `${name}.md`;
      found.push({ text: (m[2] ?? m[1]!).trim(), target, end: m.index! + m[0].length });
    }
    if (found.length === 0) continue;
    const lastEnd = Math.max(...found.map((f) => f.end));
    const after = body
      .slice(lastEnd)
      .replace(/^\s*[—–-]+\s*/, "")
      .trim();
    const hookParts = [after];
    const startLine = i + 1;
    const indent = item[1]!.length;
    while (i + 1 < lines.length && /^\s+\S/.test(lines[i + 1]!) && !LIST_ITEM.test(lines[i + 1]!) && lines[i + 1]!.search(/\S/) > indent) {
      hookParts.push(lines[++i]!.trim());
    }
    for (const f of found) {
      const kind = classify(f.target);
      if (!kind) continue;
      let resolved = resolveTarget(indexDir, f.target.replace(/[?#].*$/, ""));
      if (resolved && kind === "section" && !resolved.endsWith("_index.md")) resolved = path.posix.join(resolved, "_index.md");
      const link: IndexLink = { text: f.text, target: f.target, resolved, kind, hook: hookParts.join(" ").trim(), line: startLine, group };
      if (resolved === null) escaping.push(link);
      else links.push(link);
    }
  }
  const placeholder = /_\(empty|<!--\s*TODO|\{\{[A-Z_]+\}\}/.test(text);
  return {
    title,
    description: descLines.join(" "),
    links,
    escaping,
    // A final newline ends the last line; it does not start another.
    lineCount: text.endsWith("\n") ? lines.length - 1 : lines.length,
    head: lines.slice(0, 30).join("\n"),
    placeholderOnly: links.length === 0 && (placeholder || lines.filter((l) => l.trim() !== "" && !/^#/.test(l)).length <= 2),
  };
}
