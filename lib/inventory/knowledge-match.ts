import type { DocumentHitDto } from "../db/dto";
import { flagDirectives } from "./directives";
import type { FlaggedDirective } from "./types";

/** Words of a query, lower-cased, without one- and two-letter noise. */
export function queryTokens(q: string): string[] {
  return [
    ...new Set(
      q
        .toLowerCase()
        .normalize("NFC")
        .split(/[^\p{L}\p{N}]+/u)
        .filter((t) => t.length >= 3 || /^\p{N}+$/u.test(t)),
    ),
  ];
}

export interface RequirementMatch {
  id: string;
  title: string;
  /** 0..1: share of query words found, weighted by where they were found. */
  relevance: number;
  summary: string;
  tags: string[];
  components: string[];
  relPath: string;
  flagged: FlaggedDirective[];
}

/**
 * The archivist's "keyword matches, top 3 with a relevance score", done without a model:
 * a query word in the id or title counts fully, in tags or components 0.8, elsewhere 0.5.
 */
export function rankRequirements(q: string, docs: DocumentHitDto[], top = 3): RequirementMatch[] {
  const tokens = queryTokens(q);
  const whole = q.toLowerCase().trim();
  const out: RequirementMatch[] = [];
  for (const d of docs) {
    let t: { id?: string; title?: string; description?: string; tags?: string[]; components?: string[] } = {};
    try {
      t = JSON.parse(d.content) as typeof t;
    } catch {
      t = { id: d.slug ?? d.relPath, title: d.title ?? d.relPath, description: d.content.slice(0, 300) };
    }
    const id = (t.id ?? d.slug ?? "").toLowerCase();
    const title = (t.title ?? "").toLowerCase();
    const tags = [...(t.tags ?? []), ...(t.components ?? [])].join(" ").toLowerCase();
    const rest = d.content.toLowerCase();
    let score = 0;
    if (tokens.length === 0) score = rest.includes(whole) ? 0.5 : 0;
    for (const tok of tokens) {
      if (id.includes(tok) || title.includes(tok)) score += 1;
      else if (tags.includes(tok)) score += 0.8;
      else if (rest.includes(tok)) score += 0.5;
    }
    const relevance = tokens.length ? score / tokens.length : score;
    if (id === whole) score = 1;
    if (relevance <= 0) continue;
    out.push({
      id: t.id ?? d.slug ?? d.relPath,
      title: t.title ?? d.title ?? "",
      relevance: Math.round(Math.min(1, id === whole ? 1 : relevance) * 100) / 100,
      summary: (t.description ?? "").slice(0, 280),
      tags: t.tags ?? [],
      components: t.components ?? [],
      relPath: d.relPath.replace(/#.*$/, ""),
      flagged: flagDirectives(`${t.title ?? ""}\n${t.description ?? ""}`, d.relPath),
    });
  }
  // A ticket can be indexed twice (index.json entry and its metadata.json): keep its best.
  const best = new Map<string, RequirementMatch>();
  for (const m of out) {
    const prev = best.get(m.id);
    if (!prev || m.relevance > prev.relevance) best.set(m.id, m);
  }
  return [...best.values()].sort((a, b) => b.relevance - a.relevance || (a.id < b.id ? -1 : 1)).slice(0, top);
}

export interface ProductMatch {
  title: string;
  relPath: string;
  /** Lines around the first match, verbatim. */
  excerpt: string;
  flagged: FlaggedDirective[];
}

/** Lines around the first line that contains any query word (or the query), at most `radius` each side. */
export function excerptAround(text: string, q: string, radius = 1): { excerpt: string; line: number } {
  const lines = text.split(/\r?\n/);
  const whole = q.toLowerCase();
  const tokens = queryTokens(q);
  // The line with the whole query first; only then a line with any of its words.
  let i = lines.findIndex((l) => l.toLowerCase().includes(whole));
  if (i === -1) i = lines.findIndex((l) => tokens.some((t) => l.toLowerCase().includes(t)));
  i = Math.max(0, i);
  return {
    excerpt: lines
      .slice(Math.max(0, i - radius), i + radius + 1)
      .join("\n")
      .trim(),
    line: i + 1,
  };
}

/** Product documents ranked by how many query words they contain, then by path. */
export function productMatches(q: string, docs: DocumentHitDto[], top = 5): ProductMatch[] {
  const tokens = queryTokens(q);
  const hits = (d: DocumentHitDto) => {
    const text = `${d.title ?? ""}\n${d.content}`.toLowerCase();
    return tokens.filter((t) => text.includes(t)).length + (text.includes(q.toLowerCase()) ? 1 : 0);
  };
  const ranked = docs
    .map((d) => ({ d, n: hits(d) }))
    .filter((x) => x.n > 0)
    .sort((a, b) => b.n - a.n || (a.d.relPath < b.d.relPath ? -1 : 1))
    .map((x) => x.d);
  return ranked.slice(0, top).map((d) => ({
    title: d.title ?? d.relPath,
    relPath: d.relPath,
    excerpt: excerptAround(d.content, q).excerpt,
    flagged: flagDirectives(d.content, d.relPath),
  }));
}
