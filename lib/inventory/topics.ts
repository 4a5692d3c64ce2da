import type { TopicRowDto } from "../db/dto";
import { SOURCE_KINDS, type TopicSourceRecord } from "./types";

type SourceSummary = Pick<TopicSourceRecord, "source" | "slug" | "title" | "status" | "type" | "updatedAt" | "listed">;

/**
 * One inventory row for a slug from what each source knows. Title, status and type come
 * from the first source in the seed's column order (Work, Brainstorm, Proposal,
 * Refactoring) that has them; "last updated" is the newest of all.
 */
export function buildTopicRow(slug: string, sources: SourceSummary[]): TopicRowDto | null {
  const listed = sources.filter((s) => s.listed).sort((a, b) => SOURCE_KINDS.indexOf(a.source) - SOURCE_KINDS.indexOf(b.source));
  if (listed.length === 0) return null;
  const first = <K extends "title" | "status" | "type">(k: K) => listed.find((s) => s[k])?.[k] ?? null;
  const updated =
    listed
      .map((s) => s.updatedAt)
      .filter((u): u is string => !!u)
      .sort()
      .pop() ?? null;
  return {
    slug,
    title: first("title"),
    status: first("status"),
    type: first("type"),
    updatedAt: updated,
    sources: [...new Set(listed.map((s) => s.source))],
  };
}

/** Most recently updated first; topics without a date last, then by slug. */
export function compareTopics(a: TopicRowDto, b: TopicRowDto): number {
  if (a.updatedAt !== b.updatedAt) {
    if (!a.updatedAt) return 1;
    if (!b.updatedAt) return -1;
    return a.updatedAt < b.updatedAt ? 1 : -1;
  }
  return a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0;
}
