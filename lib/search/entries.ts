/**
 * What each indexed thing looks like as a search entry: its kind, key, title, searchable
 * body, facet values and the page that shows it. Pure: the sync step feeds it what the
 * indexer stored, the run views and the memory log.
 */
import type { IndexedContent, StoredEntry } from "../db/repositories/search";
import type { MemoryEvent } from "../memory/memory-file";
import type { EventStatus } from "../memory/current-view";
import type { FindingRow } from "../deep-context/views";
import type { SearchKind } from "./schemas";

/** An entry as the sync step builds it; the database adds its content hash (StoredEntry). */
export interface EntryInput extends Omit<StoredEntry, "kind" | "hash"> {
  kind: SearchKind;
}

/** A body longer than this is cut: enough for any real document, bounded for the index. */
export const MAX_BODY_CHARS = 200_000;

const base = (projectId: string) => `/projects/${encodeURIComponent(projectId)}`;
const basename = (p: string) => p.slice(p.lastIndexOf("/") + 1);
const cut = (s: string) => (s.length > MAX_BODY_CHARS ? s.slice(0, MAX_BODY_CHARS) : s);

export function topicEntries(projectId: string, c: Pick<IndexedContent, "topics" | "topicSources">): EntryInput[] {
  const sourcesBySlug = new Map<string, IndexedContent["topicSources"]>();
  for (const s of c.topicSources) {
    const list = sourcesBySlug.get(s.slug);
    if (list) list.push(s);
    else sourcesBySlug.set(s.slug, [s]);
  }
  return c.topics.map((t) => {
    const sources = sourcesBySlug.get(t.slug) ?? [];
    const body = [t.slug, t.type, t.sources, ...sources.flatMap((s) => [s.title, s.phase])].filter(Boolean).join("\n");
    return {
      kind: "topic",
      ref: t.slug,
      title: t.title ?? t.slug,
      body,
      status: t.status,
      date: t.updatedAt,
      href: `${base(projectId)}/topics/${encodeURIComponent(t.slug)}`,
    };
  });
}

/** A session's or brainstorm's summary file, as opposed to its other documents. */
const SUMMARY_FILE = /(^|[-_/])summary\.md$/i;

function documentKind(d: IndexedContent["documents"][number]): SearchKind {
  if (d.area === "requirements") return "requirement";
  if (d.area === "product") return "knowledge";
  if (d.area === "kb") return "kb";
  return SUMMARY_FILE.test(d.relPath) ? "summary" : "document";
}

export function documentEntries(projectId: string, docs: IndexedContent["documents"]): EntryInput[] {
  return docs.map((d) => ({
    kind: documentKind(d),
    ref: d.relPath,
    title: d.title ?? basename(d.relPath),
    // The path last: snippets then open on the content, and the path's words still match.
    body: cut(`${d.content}\n${d.relPath}`),
    status: d.source,
    date: null,
    href: `${base(projectId)}/documents?path=${encodeURIComponent(d.relPath)}`,
  }));
}

export function commitEntries(projectId: string, commits: IndexedContent["commits"]): EntryInput[] {
  return commits.map((c) => ({
    kind: "commit",
    ref: c.hash,
    title: c.subject || c.hash.slice(0, 10),
    body: cut(`${c.message}\n${c.hash}`),
    status: null,
    date: c.date,
    href: `${base(projectId)}/commits/${encodeURIComponent(c.hash)}`,
  }));
}

export function packetEntries(projectId: string, packets: IndexedContent["packets"]): EntryInput[] {
  return packets.map((p) => ({
    kind: p.kind === "brief" ? "brief" : "packet",
    ref: p.id,
    title: p.title,
    body: cut([p.topicSlug, p.markdown].filter(Boolean).join("\n")),
    status: p.archived ? "archived" : p.reviewStatus,
    date: p.updatedAt.toISOString(),
    href: `${base(projectId)}/packets/${encodeURIComponent(p.id)}`,
  }));
}

export function memoryEntries(projectId: string, entries: { event: MemoryEvent; status: EventStatus }[]): EntryInput[] {
  return entries.map(({ event: e, status }) => ({
    kind: "memory",
    ref: e.event_id,
    title: e.summary.length > 140 ? `${e.summary.slice(0, 139)}…` : e.summary,
    body: [e.event_id, e.event_type, e.summary, e.rationale, e.actor, ...e.evidence_refs].join("\n"),
    status,
    date: e.created_at,
    href: `${base(projectId)}/memory#${encodeURIComponent(e.event_id)}`,
  }));
}

/** Findings of one run; refs are `<runId>:<unit_id>` so one run's entries can be replaced together. */
export function findingEntries(projectId: string, runId: string, date: string | null, findings: readonly FindingRow[]): EntryInput[] {
  const page = `${base(projectId)}/runs/${encodeURIComponent(runId)}`;
  return findings.map((f) => ({
    kind: "finding",
    ref: `${runId}:${f.unit_id}`,
    title: f.symbol ? `${f.symbol} · ${f.path}` : f.path,
    body: [f.path, f.symbol, f.kind, f.signature, f.reuse, f.evidence, f.notes, f.producedBy.join(" ")].filter(Boolean).join("\n"),
    status: f.bucket,
    date,
    href: `${page}?f.q=${encodeURIComponent(f.path)}&finding=${encodeURIComponent(f.unit_id)}`,
  }));
}
