import type { BranchDto, CommitDto, TopicSourceDto } from "../db/dto";
import type { ContextStore } from "./context-store";
import { excerptAround, productMatches, queryTokens, rankRequirements, type ProductMatch, type RequirementMatch } from "./knowledge-match";
import { handoffOptions, type HandoffOption } from "./handoff";
import { checkQuery } from "./query-safety";
import { SOURCE_KINDS, type FlaggedDirective, type SourceKind } from "./types";

/** Bounds so a broad query can never return the whole project. */
export const FUZZY_LIMIT_PER_SOURCE = 10;
export const CONTENT_MATCH_LIMIT = 20;
export const GIT_GREP_LIMIT = 10;

export interface ContentMatch {
  relPath: string;
  source: SourceKind | null;
  slug: string | null;
  line: number;
  excerpt: string;
}

export interface SearchedLocations {
  work: string;
  brainstorms: string;
  proposals: string;
  refactoring: string;
  requirements: "searched" | "not configured";
  product: "searched" | "not configured";
}

export interface LoadContextResult {
  query: string;
  pathSafe: boolean;
  /** exact: Phase 1 found something; fuzzy: Phase 2 did; none: nothing anywhere. */
  mode: "exact" | "fuzzy" | "none";
  matches: Record<SourceKind, TopicSourceDto[]>;
  priorArt: { slug: string; record: TopicSourceDto | null }[];
  contentMatches: ContentMatch[];
  /** null when the requirements KB is not configured (or only searched in the fuzzy phase). */
  requirements: RequirementMatch[] | null;
  product: ProductMatch[] | null;
  git: { branches: BranchDto[]; commits: CommitDto[] };
  handoff: { slug: string; type: string; status: string; options: HandoffOption[] } | null;
  flagged: FlaggedDirective[];
  searched: SearchedLocations;
}

function emptyMatches(): Record<SourceKind, TopicSourceDto[]> {
  return { work: [], brainstorm: [], proposal: [], refactoring: [] };
}

/** Phase 1's per-source rule: a manifest item, else (path-safe queries only) what is on disk. */
function exactHit(r: TopicSourceDto, pathSafe: boolean): boolean {
  if (r.fromManifest) return true;
  if (!pathSafe || !r.onDisk) return false;
  if (r.source === "brainstorm") return r.details.kind === "brainstorm" && r.details.hasState;
  // With a valid manifest a folder it does not list is not an exact match (listed=false).
  return r.listed;
}

function locations(layouts: Awaited<ReturnType<ContextStore["layouts"]>>, k: "work" | "brainstorms" | "proposals" | "refactoring"): string {
  const dirs = [...new Set(layouts.map((l) => l.artifacts[k].relPath).filter((d): d is string => !!d))];
  return dirs.join(", ") || "(none)";
}

/**
 * /load-context <identifier-or-query>: Phase 1 exact match, Phase 2 fuzzy fallback,
 * prior art, git history and the Phase 4 handoff, from the index.
 */
export async function loadContext(store: ContextStore, rawQuery: string): Promise<LoadContextResult> {
  const { query, pathSafe } = checkQuery(rawQuery);
  const layouts = await store.layouts();
  const configured = await store.knowledgeConfigured();
  const matches = emptyMatches();
  const lookupSlug = pathSafe && query.endsWith(".md") ? query.slice(0, -3) : query;

  // Phase 1: exact match per source, and branches containing the query.
  const exact = await store.sourcesForSlug(query);
  if (lookupSlug !== query) exact.push(...(await store.sourcesForSlug(lookupSlug)).filter((r) => r.source === "proposal"));
  for (const r of exact) if (exactHit(r, pathSafe)) matches[r.source].push(r);
  const branches = await store.branchesContaining(query);
  let commits: CommitDto[] = dedupeCommits(branches.flatMap((b) => b.recent.map((c) => ({ hash: c.shortHash, shortHash: c.shortHash, subject: c.subject, date: c.date }))));
  const exactFound = SOURCE_KINDS.some((s) => matches[s].length > 0) || branches.length > 0;

  const contentMatches: ContentMatch[] = [];
  let requirements: RequirementMatch[] | null = null;
  let product: ProductMatch[] | null = null;
  let mode: LoadContextResult["mode"] = exactFound ? "exact" : "none";

  if (!exactFound) {
    // Phase 2.1: folder names containing the query, then files mentioning it.
    const bySlug = await store.sourcesWithSlugLike(query, FUZZY_LIMIT_PER_SOURCE);
    for (const r of bySlug) if (r.onDisk && matches[r.source].length < FUZZY_LIMIT_PER_SOURCE) matches[r.source].push(r);
    const docs = await store.documentsContaining([query], "artifact", CONTENT_MATCH_LIMIT * 5);
    const seen = new Set(SOURCE_KINDS.flatMap((s) => matches[s].map((r) => `${s}\0${r.slug}`)));
    for (const d of docs) {
      const { excerpt, line } = excerptAround(d.content, query, 0);
      if (contentMatches.length < CONTENT_MATCH_LIMIT) contentMatches.push({ relPath: d.relPath, source: d.source, slug: d.slug, line, excerpt });
      if (d.source && d.slug && !seen.has(`${d.source}\0${d.slug}`) && matches[d.source].length < FUZZY_LIMIT_PER_SOURCE) {
        seen.add(`${d.source}\0${d.slug}`);
        const rec = (await store.sourcesForSlug(d.slug)).find((r) => r.source === d.source);
        if (rec) matches[d.source].push(rec);
      }
    }
    // Phase 2.2 / 2.3: the knowledge bases, only when configured.
    const tokens = queryTokens(query);
    const needles = [query, ...tokens];
    if (configured.requirements) requirements = rankRequirements(query, await store.documentsContaining(needles, "requirements", 500));
    if (configured.product) product = productMatches(query, await store.documentsContaining(needles, "product", 200));
    // Phase 2.4: git log --all --grep.
    commits = await store.commitsGrep(query, GIT_GREP_LIMIT);
    const fuzzyFound = SOURCE_KINDS.some((s) => matches[s].length > 0) || contentMatches.length > 0 || (requirements?.length ?? 0) > 0 || (product?.length ?? 0) > 0 || commits.length > 0;
    mode = fuzzyFound ? "fuzzy" : "none";
  }

  // Prior art: brainstorms that work sessions were promoted from.
  const priorArt: LoadContextResult["priorArt"] = [];
  for (const w of matches.work) {
    if (w.details.kind !== "work" || !w.details.promotedFrom) continue;
    const slug = w.details.promotedFrom;
    const rec = (await store.sourcesForSlug(slug)).find((r) => r.source === "brainstorm") ?? null;
    priorArt.push({ slug, record: rec });
  }

  // Phase 4: only when WORK_DIR/<query>/state.json exists: a work session, or a legacy
  // brainstorm kept in the work folder.
  const w = pathSafe
    ? (matches.work.find((r) => r.slug === query && r.details.kind === "work" && r.details.hasState) ??
      matches.brainstorm.find((r) => r.slug === query && r.legacy && r.details.kind === "brainstorm" && r.details.hasState))
    : undefined;
  const handoff = w ? { slug: w.slug, type: w.type ?? "unknown", status: w.status ?? "unknown", options: handoffOptions(w.type, w.status, w.slug) } : null;

  const flagged = [
    ...SOURCE_KINDS.flatMap((s) => matches[s]).flatMap((r) => (r.details.kind === "work" ? r.details.agentOutputs.flatMap((o) => o.flagged) : [])),
    ...(requirements ?? []).flatMap((r) => r.flagged),
    ...(product ?? []).flatMap((p) => p.flagged),
  ];

  return {
    query,
    pathSafe,
    mode,
    matches,
    priorArt,
    contentMatches,
    requirements,
    product,
    git: { branches, commits },
    handoff,
    flagged,
    searched: {
      work: locations(layouts, "work"),
      brainstorms: locations(layouts, "brainstorms"),
      proposals: locations(layouts, "proposals"),
      refactoring: locations(layouts, "refactoring"),
      requirements: configured.requirements ? "searched" : "not configured",
      product: configured.product ? "searched" : "not configured",
    },
  };
}

function dedupeCommits(cs: CommitDto[]): CommitDto[] {
  const seen = new Set<string>();
  return cs.filter((c) => (seen.has(c.hash) ? false : (seen.add(c.hash), true)));
}
