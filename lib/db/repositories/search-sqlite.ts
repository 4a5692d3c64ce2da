/**
 * The SQLite side of search. Measured at 100,000 entries, a join from each match to its
 * "SearchEntry" row (to count facets and apply filters) cost 100–300 ms, and a JavaScript
 * function called by SQLite for every match about 1 µs a match; so each entry's facet values
 * sit in typed arrays indexed by rowid, the matches' rowids are read in one go (a fraction of
 * that) and counted into the facet groups here, and FTS5 ranks by bm25 and keeps the best
 * `limit`, calling back into JavaScript only when a filter must be applied. Titles and bodies
 * (for snippets) are read for those hits only.
 *
 * Words are matched through the stemmed index ("SearchEntryStem"), prefixes through the index
 * of the words as typed ("SearchEntryFts"). Entries with the words as typed rank first: they
 * are ranked in that index, and stem-only matches are ranked only when fewer than `limit` of
 * those pass the filters (a common word has more than enough, so its many other forms are
 * counted but never scored).
 */
import type { Database as Sqlite } from "better-sqlite3";
import { getDb } from "../client";
import { sqliteFileUrl } from "../database-url";
import { noteQuery } from "../query-stats";
import { EXACT_BONUS, type FacetGroup, type MatchFilters, type MatchRow, type SearchMatch } from "./search";

interface FacetIndex {
  /** max(id) and count(*) of SearchEntry when built: any insert or delete changes one. */
  stamp: string;
  project: Uint16Array;
  kind: Uint8Array;
  status: Uint16Array;
  /** yyyymmdd, 0 when the entry has no date. */
  day: Uint32Array;
  /** Each entry's facet group (its project, kind, status and year together), an index into `groups`. */
  group: Uint32Array;
  groups: { project: number; kind: number; status: number; year: number }[];
  projects: string[];
  kinds: string[];
  statuses: (string | null)[];
}

interface ReadState {
  db: Sqlite;
  dataVersion: number;
  index: FacetIndex | null;
  /** Whether an entry passes the current query's filters (called by SQLite, see wb_pass). */
  pass: (id: number) => number;
}

const g = globalThis as { __workbenchSearchRead?: { file: string; state: Promise<ReadState> } };

function dayOf(date: string | null): number {
  const m = date ? /^(\d{4})-(\d{2})-(\d{2})/.exec(date) : null;
  return m ? Number(m[1]) * 10_000 + Number(m[2]) * 100 + Number(m[3]) : 0;
}

/** One read connection per database file; concurrent first searches share its opening. */
function readState(): Promise<ReadState> {
  const file = sqliteFileUrl().slice("file:".length);
  const cached = g.__workbenchSearchRead;
  if (cached?.file === file) return cached.state;
  if (cached) void cached.state.then((s) => s.db.close()).catch(() => undefined);
  const state = (async () => {
    await getDb(); // migrated before the first read
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(file, { readonly: true, timeout: 10_000 });
    const s: ReadState = { db, dataVersion: -1, index: null, pass: () => 1 };
    db.function("wb_pass", { deterministic: false, directOnly: true }, (id) => s.pass(Number(id)));
    return s;
  })();
  g.__workbenchSearchRead = { file, state };
  state.catch(() => {
    if (g.__workbenchSearchRead?.state === state) g.__workbenchSearchRead = undefined;
  });
  return state;
}

/** The facet arrays, rebuilt only when entries were added or removed since the last build. */
function facetIndex(state: ReadState): FacetIndex {
  noteQuery();
  const version = state.db.pragma("data_version", { simple: true }) as number;
  if (state.index && version === state.dataVersion) return state.index;
  state.dataVersion = version;
  noteQuery();
  const head = state.db.prepare(`SELECT max("id") AS m, count(*) AS n FROM "SearchEntry"`).get() as { m: number | null; n: number };
  const stamp = `${head.m ?? 0}:${head.n}`;
  if (state.index?.stamp === stamp) return state.index;
  const size = (head.m ?? 0) + 1;
  const index: FacetIndex = {
    stamp,
    project: new Uint16Array(size),
    kind: new Uint8Array(size),
    status: new Uint16Array(size),
    day: new Uint32Array(size),
    group: new Uint32Array(size),
    groups: [],
    projects: [],
    kinds: [],
    statuses: [],
  };
  const groupCodes = new Map<string, number>();
  const codes = <T>(list: T[]) => {
    const m = new Map<T, number>();
    return (v: T) => {
      let c = m.get(v);
      if (c === undefined) m.set(v, (c = list.push(v) - 1));
      return c;
    };
  };
  const projectCode = codes(index.projects);
  const kindCode = codes(index.kinds);
  const statusCode = codes(index.statuses);
  // The planner reads these columns from the covering SearchEntry_facets index, never the bodies.
  noteQuery();
  const rows = state.db.prepare(`SELECT "id", "projectId", "kind", "status", "date" FROM "SearchEntry"`).raw().iterate() as IterableIterator<[number, string, string, string | null, string | null]>;
  for (const [id, projectId, kind, status, date] of rows) {
    index.project[id] = projectCode(projectId);
    index.kind[id] = kindCode(kind);
    index.status[id] = statusCode(status);
    index.day[id] = dayOf(date);
    const year = date ? Number(date.slice(0, 4)) || 0 : 0;
    const gk = `${index.project[id]},${index.kind[id]},${index.status[id]},${year}`;
    let gc = groupCodes.get(gk);
    if (gc === undefined) groupCodes.set(gk, (gc = index.groups.push({ project: index.project[id]!, kind: index.kind[id]!, status: index.status[id]!, year }) - 1));
    index.group[id] = gc;
  }
  state.index = index;
  return index;
}

export interface SqliteSearch {
  groups: FacetGroup[];
  rows: MatchRow[];
}

/**
 * Calls `visit` with the rowid of every entry an FTS5 table matches. The rowids come back as
 * one comma-separated string, parsed here: half the time of one JavaScript value a row
 * (measured at 100,000 entries: 30,000 matches in 2.5 ms rather than 4.8 ms).
 */
function forEachMatch(db: Sqlite, fts: string, expr: string, visit: (id: number) => void): void {
  noteQuery();
  const ids = (db.prepare(`SELECT group_concat(rowid) FROM "${fts}" WHERE "${fts}" MATCH ?`).pluck().get(expr) as string | null) ?? "";
  let id = 0;
  for (let i = 0; i < ids.length; i++) {
    const c = ids.charCodeAt(i);
    if (c === 44 /* , */) {
      visit(id);
      id = 0;
    } else id = id * 10 + (c - 48);
  }
  if (ids.length > 0) visit(id);
}

/**
 * Every match counted into facet groups (project, kind, status, year) regardless of the
 * filters, and the best `limit` matches that pass the filters, with their snippets.
 */
export async function sqliteSearch(match: SearchMatch, filters: MatchFilters, limit: number, projectNames: Map<string, string>): Promise<SqliteSearch> {
  const state = await readState();
  // One read transaction: the facet arrays, the counts and the ranking see the same entries.
  return state.db.transaction(() => searchSnapshot(state, match, filters, limit, projectNames))();
}

function searchSnapshot(state: ReadState, match: SearchMatch, filters: MatchFilters, limit: number, projectNames: Map<string, string>): SqliteSearch {
  const ix = facetIndex(state);
  const want = {
    project: filters.projectId === undefined ? -1 : ix.projects.indexOf(filters.projectId),
    kinds: new Set(filters.kinds.map((k) => ix.kinds.indexOf(k))),
    status: filters.status === undefined ? -1 : ix.statuses.indexOf(filters.status),
    from: filters.from ? dayOf(filters.from) : 0,
    to: filters.to ? dayOf(filters.to) : 0,
  };
  // A filter value nothing carries: nothing passes, but facets are still counted.
  const impossible = (filters.projectId !== undefined && want.project < 0) || (filters.status !== undefined && want.status < 0) || [...want.kinds].some((k) => k < 0 && filters.kinds.length === 1);
  const dated = want.from > 0 || want.to > 0;
  const visible = filters.visibleProjectIds ? new Set(filters.visibleProjectIds.map((id) => ix.projects.indexOf(id)).filter((c) => c >= 0)) : null;
  const filtered = dated || visible !== null || want.project >= 0 || want.kinds.size > 0 || want.status >= 0;
  const dateOk = (id: number) => {
    const d = ix.day[id]!;
    return !dated || (d !== 0 && (!want.from || d >= want.from) && (!want.to || d <= want.to));
  };
  const passes = (id: number) => {
    if (id >= ix.kind.length) return false; // added after the arrays were built: the next query sees it
    if (visible && !visible.has(ix.project[id]!)) return false;
    if (impossible) return false;
    if (want.project >= 0 && ix.project[id] !== want.project) return false;
    if (want.kinds.size > 0 && !want.kinds.has(ix.kind[id]!)) return false;
    if (want.status >= 0 && ix.status[id] !== want.status) return false;
    return dateOk(id);
  };

  // Every match (stemmed, or as typed for a prefix), counted here: two counters per facet
  // group, for entries outside the date filter's range and inside it.
  const [table, expr] = match.stemmed === null ? (["SearchEntryFts", match.exact] as const) : (["SearchEntryStem", match.stemmed] as const);
  const counts = new Uint32Array(ix.groups.length * 2);
  let passing = 0;
  forEachMatch(state.db, table, expr, (id) => {
    if (id >= ix.kind.length) return;
    if (visible && !visible.has(ix.project[id]!)) return; // neither matched nor counted
    counts[ix.group[id]! * 2 + (dateOk(id) ? 1 : 0)]!++;
    if (passes(id)) passing++;
  });

  // bm25 is lower-is-better; title words count four times body words.
  const ranked = (fts: string, q: string, n: number) => {
    noteQuery();
    return state.db
      .prepare(`SELECT rowid, bm25("${fts}", 4.0, 1.0) AS r FROM "${fts}" WHERE "${fts}" MATCH ?${filtered ? " AND wb_pass(rowid)" : ""} ORDER BY r LIMIT ?`)
      .raw()
      .all(q, n) as [number, number][];
  };
  /** Each hit's rowid and score (higher is better). */
  let top: [number, number][] = [];
  state.pass = (id) => (passes(id) ? 1 : 0);
  try {
    if (passing > 0) {
      const exact = ranked("SearchEntryFts", match.exact, limit);
      top = exact.map(([id, r]) => [id, (match.stemmed === null ? 0 : EXACT_BONUS) - r]);
      // Stem-only matches fill the page when the words as typed do not (every exact match
      // is a stemmed one too, so `limit` stemmed matches hold enough that are not).
      if (match.stemmed !== null && exact.length < limit && exact.length < passing) {
        const seen = new Set(exact.map(([id]) => id));
        for (const [id, r] of ranked("SearchEntryStem", match.stemmed, limit)) {
          if (top.length >= limit) break;
          if (!seen.has(id)) top.push([id, -r]);
        }
      }
    }
  } finally {
    state.pass = () => 1;
  }
  const groups: FacetGroup[] = [];
  counts.forEach((n, slot) => {
    if (n === 0) return;
    const gr = ix.groups[slot >> 1]!;
    const projectId = ix.projects[gr.project]!;
    groups.push({
      projectId,
      projectName: projectNames.get(projectId) ?? projectId,
      kind: ix.kinds[gr.kind]!,
      status: ix.statuses[gr.status] ?? null,
      year: gr.year ? String(gr.year) : null,
      dateOk: (slot & 1) === 1,
      n,
    });
  });
  if (top.length === 0) return { groups, rows: [] };
  const ids = top.map(([id]) => id);
  const marks = ids.map(() => "?").join(",");
  noteQuery();
  // Snippets are cut in JavaScript from the bodies: FTS5's snippet() re-expands a prefix
  // query for every row (measured: 100 ms for 50 rows of "invo*" at 100,000 entries).
  const details = new Map(
    (
      state.db.prepare(`SELECT "id", "projectId", "kind", "ref", "title", "status", "date", "href", "body" FROM "SearchEntry" WHERE "id" IN (${marks})`).all(...ids) as (Omit<
        MatchRow,
        "score" | "snippet" | "projectName"
      > & { id: number })[]
    ).map((r) => [r.id, r]),
  );
  const rows: MatchRow[] = [];
  for (const [id, score] of top) {
    const d = details.get(id);
    if (!d) continue; // never within one snapshot; a missing row is simply not shown
    const { id: _id, ...rest } = d;
    rows.push({ ...rest, projectName: projectNames.get(d.projectId) ?? d.projectId, score, snippet: null });
  }
  return { groups, rows };
}
