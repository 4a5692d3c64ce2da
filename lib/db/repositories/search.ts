/**
 * The search index in the database: entries, what they were built from, and the full-text
 * queries, in each engine's own SQL (two FTS5 tables on SQLite, search-sqlite.ts; two
 * tsvectors with ts_rank_cd on PostgreSQL), each engine indexing the words as typed and
 * stemmed. Entry rows are written with plain SQL in one transaction, like the indexer's bulk
 * writes: a run can add tens of thousands of findings.
 */
import { getDb } from "../client";
import { containsPattern, count } from "../db-values";
import { noteQuery } from "../query-stats";
import { pgPooledClient } from "../read-connection";
import { readSql, withSqlTransaction, type SqlTx } from "../sql-tx";

/** An entry as stored: what lib/search/entries builds (its kind one of lib/search's kinds), with its content hash. */
export interface StoredEntry {
  kind: string;
  ref: string;
  title: string;
  body: string;
  status: string | null;
  date: string | null;
  href: string;
  hash: string;
}

/** The PostgreSQL words of an entry (see lib/search/text.ts indexWords). */
export interface EntryWords {
  title: string;
  body: string;
}

export interface EntryChanges {
  /** New entries and changed ones (matched on kind and ref). */
  upsert: { entry: StoredEntry; words: () => EntryWords }[];
  /** Entries to remove, by kind and ref. */
  remove: { kind: string; ref: string }[];
  /** Set when no stored entry has any of the upserted keys (a project's first rebuild): nothing to delete first. */
  allNew?: boolean;
}

const key = (kind: string, ref: string) => `${kind}\u0000${ref}`;

/** Values per IN (...) list: under SQLite's bind limit with the other parameters. */
const IN_LIST = 500;

function chunked<T>(xs: readonly T[], n = IN_LIST): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

/**
 * The hash of every stored entry of these kinds in a project, by kind and ref; with `refs`,
 * only the entries with those refs.
 */
export async function entryHashes(projectId: string, kinds: readonly string[], refPrefix = "", refs?: readonly string[]): Promise<Map<string, string>> {
  // Plain SQL: a sync compares every page of entries, and Prisma's per-query cost adds up.
  const base = `SELECT "kind", "ref", "hash" FROM "SearchEntry" WHERE "projectId" = ? AND "kind" IN (${kinds.map(() => "?").join(",")})`;
  const prefix = refPrefix ? ` AND substr("ref", 1, ?) = ?` : "";
  const prefixParams = refPrefix ? [refPrefix.length, refPrefix] : [];
  const run = (extra: string, params: unknown[]) => readSql<{ kind: string; ref: string; hash: string }>(base + prefix + extra, [projectId, ...kinds, ...prefixParams, ...params]);
  const rows = refs ? (await Promise.all(chunked(refs).map((part) => run(` AND "ref" IN (${part.map(() => "?").join(",")})`, part)))).flat() : await run("", []);
  return new Map(rows.map((r) => [key(r.kind, r.ref), r.hash]));
}

/** Stored entries per kind in a project (the sync's cheap check that nothing went missing). */
export async function entryCounts(projectId: string): Promise<Map<string, number>> {
  const rows = await readSql<{ kind: string; n: unknown }>(`SELECT "kind", COUNT(*) AS "n" FROM "SearchEntry" WHERE "projectId" = ? GROUP BY "kind"`, [projectId]);
  return new Map(rows.map((r) => [r.kind, count(r.n)]));
}

/** Indexed rows per search group in a project, to compare with entryCounts. */
export async function indexedCounts(projectId: string): Promise<{ topics: number; documents: number; commits: number; packets: number }> {
  const of = (table: string) => `(SELECT COUNT(*) FROM "${table}" WHERE "projectId" = ?) AS "${table}"`;
  const [r] = await readSql<Record<"Topic" | "Document" | "GitCommit" | "Packet", unknown>>(`SELECT ${of("Topic")}, ${of("Document")}, ${of("GitCommit")}, ${of("Packet")}`, [projectId, projectId, projectId, projectId]);
  return { topics: count(r?.Topic), documents: count(r?.Document), commits: count(r?.GitCommit), packets: count(r?.Packet) };
}

export const entryKey = key;

const COLUMNS = ["projectId", "kind", "ref", "title", "body", "status", "date", "href", "hash"] as const;
/** Rows per statement: under both engines' bind limits, and small enough to keep memory flat. */
const BATCH = 500;

async function removeEntries(tx: SqlTx, projectId: string, refs: { kind: string; ref: string }[]): Promise<void> {
  const byKind = new Map<string, string[]>();
  for (const r of refs) {
    const list = byKind.get(r.kind);
    if (list) list.push(r.ref);
    else byKind.set(r.kind, [r.ref]);
  }
  for (const [kind, list] of byKind) {
    for (let i = 0; i < list.length; i += BATCH) {
      const part = list.slice(i, i + BATCH);
      await tx.run(`DELETE FROM "SearchEntry" WHERE "projectId" = ? AND "kind" = ? AND "ref" IN (${part.map(() => "?").join(",")})`, [projectId, kind, ...part]);
    }
  }
}

/** From this many new entries on, the FTS5 index is filled in one statement after the rows. */
const BULK_FTS_MIN = 1000;
/**
 * FTS5 flushes its pending terms to a new segment whenever they pass `hashsize` (1 MB by
 * default), and merges segments as they pile up. For the one bulk fill, 16 MB made the fill
 * about 30% faster on the 29,000-entry bench index (measured 1, 4, 8, 16 and 32 MB); it is
 * set back to the default in the same transaction, so ordinary writes keep the small buffer.
 */
const BULK_FTS_HASHSIZE = 16 * 1024 * 1024;
const DEFAULT_FTS_HASHSIZE = 1024 * 1024;
/** The FTS5 tables over SearchEntry (see the search migrations): words as typed, and stemmed (porter). */
const FTS_TABLES = ["SearchEntryFts", "SearchEntryStem"] as const;

/**
 * Row by row through the insert trigger, FTS5 interleaves its writes with the table's: a full
 * index spent 5 of its 7 search seconds there, and one INSERT … SELECT after the rows takes
 * about 1 s. The trigger is dropped and recreated inside the caller's transaction, so no other
 * connection ever sees it missing and a failure rolls both back. Ids only grow (AUTOINCREMENT),
 * so the rows written meanwhile are those above the largest id at the start.
 */
export async function beginBulkFts(tx: SqlTx, schema: "" | "main" = ""): Promise<{ finish(): Promise<void> } | null> {
  // `main.` when a connection also has a staging area's copy of "SearchEntry" (lib/db/staging.ts),
  // which unqualified names would reach first; the FTS tables have no copy.
  const s = schema ? `${schema}.` : "";
  const [trigger] = await tx.all<{ sql: string }>(`SELECT "sql" FROM ${s}sqlite_master WHERE "type" = 'trigger' AND "name" = 'SearchEntry_fts_insert'`);
  if (!trigger) return null;
  const maxId = (await tx.all<{ maxId: number }>(`SELECT coalesce(max("id"), 0) AS "maxId" FROM ${s}"SearchEntry"`))[0]?.maxId ?? 0;
  await tx.run(`DROP TRIGGER ${s}"SearchEntry_fts_insert"`);
  return {
    async finish() {
      // Both indexes the trigger fills: the words as typed and their stems.
      for (const fts of FTS_TABLES) {
        // FTS5 takes configuration values only as literals (a bound value is a "logic error").
        await tx.run(`INSERT INTO ${s}"${fts}" ("${fts}", rank) VALUES ('hashsize', ${BULK_FTS_HASHSIZE})`);
        await tx.run(`INSERT INTO ${s}"${fts}" (rowid, title, body) SELECT "id", "title", "body" FROM ${s}"SearchEntry" WHERE "id" > ?`, [maxId]);
        await tx.run(`INSERT INTO ${s}"${fts}" ("${fts}", rank) VALUES ('hashsize', ${DEFAULT_FTS_HASHSIZE})`);
      }
      // A trigger named without its schema goes where its table name resolves first.
      await tx.run(s ? trigger.sql.replace(/^CREATE TRIGGER "/, `CREATE TRIGGER ${s}"`) : trigger.sql);
    },
  };
}

async function insertSqlite(tx: SqlTx, projectId: string, entries: StoredEntry[]): Promise<void> {
  await tx.insert("SearchEntry", [...COLUMNS], entries, (e) => [projectId, e.kind, e.ref, e.title, e.body, e.status, e.date, e.href, e.hash]);
}

/** A title and body's words as a tsvector of one configuration, title words weighing more (A over B). */
const weighted = (config: string) => `setweight(to_tsvector('${config}', v."titleWords"), 'A') || setweight(to_tsvector('${config}', v."bodyWords"), 'B')`;

async function insertPostgres(tx: SqlTx, projectId: string, items: EntryChanges["upsert"]): Promise<void> {
  const row = `(${COLUMNS.map(() => "?").join(",")}, ?, ?)`;
  const columns = COLUMNS.map((c) => `"${c}"`).join(",");
  for (let i = 0; i < items.length; i += BATCH) {
    const part = items.slice(i, i + BATCH);
    const params: unknown[] = [];
    for (const { entry: e, words } of part) {
      const w = words();
      params.push(projectId, e.kind, e.ref, e.title, e.body, e.status, e.date, e.href, e.hash, w.title, w.body);
    }
    // Another sync of the same project may have inserted the entry since this one deleted it.
    const update = [...COLUMNS.slice(3), "tsv", "tsvStem"].map((c) => `"${c}" = EXCLUDED."${c}"`).join(", ");
    // The words are sent once and indexed twice: as typed ("tsv") and stemmed ("tsvStem").
    await tx.run(
      `INSERT INTO "SearchEntry" (${columns}, "tsv", "tsvStem")
        SELECT ${columns}, ${weighted("workbench")}, ${weighted("workbench_stem")}
        FROM (VALUES ${part.map(() => row).join(",")}) AS v(${columns}, "titleWords", "bodyWords")
        ON CONFLICT ("projectId", "kind", "ref") DO UPDATE SET ${update}`,
      params,
    );
  }
}

/**
 * Entry changes on the caller's transaction. A changed entry is replaced (delete then insert,
 * which keeps the FTS5 triggers simple).
 */
export async function writeEntryChanges(tx: SqlTx, projectId: string, changes: EntryChanges): Promise<void> {
  await removeEntries(tx, projectId, changes.allNew ? changes.remove : [...changes.remove, ...changes.upsert.map((u) => u.entry)]);
  if (tx.kind === "sqlite")
    await insertSqlite(
      tx,
      projectId,
      changes.upsert.map((u) => u.entry),
    );
  else await insertPostgres(tx, projectId, changes.upsert);
}

/** Writes a project's entry changes in one transaction; removed entries are deleted. */
export async function applyEntryChanges(projectId: string, changes: EntryChanges, source?: { key: string; fingerprint: string }): Promise<void> {
  if (changes.upsert.length === 0 && changes.remove.length === 0 && !source) return;
  await withSqlTransaction(async (tx) => {
    // A staging area's copy has no full-text index: it is filled when the job is applied.
    const bulk = tx.kind === "sqlite" && !tx.staged && changes.upsert.length >= BULK_FTS_MIN ? await beginBulkFts(tx) : null;
    await writeEntryChanges(tx, projectId, changes);
    await bulk?.finish();
    if (source) {
      await tx.run(`DELETE FROM "SearchSource" WHERE "projectId" = ? AND "key" = ?`, [projectId, source.key]);
      await tx.run(`INSERT INTO "SearchSource" ("projectId", "key", "fingerprint") VALUES (?, ?, ?)`, [projectId, source.key, source.fingerprint]);
    }
  });
}

/**
 * Writes batches of entry changes as they are produced, in one transaction: a whole rebuild
 * holds one small batch in memory at a time, yet FTS5 is filled once at the end. Batches are
 * built from committed rows read on other connections, so each must touch its own entries.
 */
export async function applyEntryChangeBatches(projectId: string, batches: AsyncIterable<EntryChanges>): Promise<{ written: number; removed: number }> {
  return withSqlTransaction(async (tx) => {
    const bulk = tx.kind === "sqlite" && !tx.staged ? await beginBulkFts(tx) : null;
    let written = 0;
    let removed = 0;
    for await (const changes of batches) {
      await writeEntryChanges(tx, projectId, changes);
      written += changes.upsert.length;
      removed += changes.remove.length;
    }
    await bulk?.finish();
    return { written, removed };
  });
}

/** What a group of entries was last built from, or null. */
export async function sourceFingerprint(projectId: string, sourceKey: string): Promise<string | null> {
  const [row] = await readSql<{ fingerprint: string }>(`SELECT "fingerprint" FROM "SearchSource" WHERE "projectId" = ? AND "key" = ?`, [projectId, sourceKey]);
  return row?.fingerprint ?? null;
}

/** Source keys of a project starting with a prefix (e.g. every run's findings). */
export async function sourceKeys(projectId: string, prefix: string): Promise<string[]> {
  // Plain SQL here and below: an index job's reads and writes go to its staging area (lib/db/staging.ts).
  const rows = await readSql<{ key: string }>(`SELECT "key" FROM "SearchSource" WHERE "projectId" = ? AND "key" LIKE ? ESCAPE '\\'`, [projectId, startsWithPattern(prefix)]);
  // LIKE ignores ASCII case on SQLite.
  return rows.map((r) => r.key).filter((k) => k.startsWith(prefix));
}

/** A LIKE pattern for text starting with `prefix`. */
const startsWithPattern = (prefix: string) => containsPattern(prefix).slice(1);

/** Drops a source and every entry built from it (a run packet that is gone). */
export async function dropSource(projectId: string, sourceKey: string, kind: string, refPrefix: string): Promise<void> {
  await withSqlTransaction(async (tx) => {
    // The prefix is a run id and a colon; `substr` keeps SQLite's LIKE from ignoring case.
    await tx.run(`DELETE FROM "SearchEntry" WHERE "projectId" = ? AND "kind" = ? AND "ref" LIKE ? ESCAPE '\\' AND substr("ref", 1, ${refPrefix.length}) = ?`, [projectId, kind, startsWithPattern(refPrefix), refPrefix]);
    await tx.run(`DELETE FROM "SearchSource" WHERE "projectId" = ? AND "key" = ?`, [projectId, sourceKey]);
  });
}

/** What the indexer stored for a project, as search entries are built from it. */
export interface IndexedContent {
  topics: { slug: string; title: string | null; status: string | null; type: string | null; updatedAt: string | null; sources: string }[];
  topicSources: { slug: string; source: string; title: string | null; phase: string | null }[];
  documents: { relPath: string; area: string; source: string | null; slug: string | null; title: string | null; content: string }[];
  commits: { hash: string; subject: string; message: string; date: string }[];
  packets: { id: string; kind: string; title: string; topicSlug: string | null; archived: boolean; reviewStatus: string; updatedAt: Date; markdown: string }[];
}

/** Packets with their head revision's text (one packet, or all of the project's). */
export async function indexedPackets(projectId: string, packetId?: string): Promise<IndexedContent["packets"]> {
  const db = await getDb();
  const packetRows = await db.packet.findMany({
    where: { projectId, ...(packetId ? { id: packetId } : {}) },
    select: { id: true, kind: true, title: true, topicSlug: true, archived: true, reviewStatus: true, updatedAt: true, headNumber: true },
  });
  // In chunks: each packet adds two bind values, and SQLite allows about a thousand.
  const heads: { packetId: string; markdown: string }[] = [];
  for (const part of chunked(packetRows, 200)) {
    heads.push(...(await db.packetRevision.findMany({ where: { OR: part.map((p) => ({ packetId: p.id, number: p.headNumber })) }, select: { packetId: true, markdown: true } })));
  }
  const headOf = new Map(heads.map((h) => [h.packetId, h.markdown]));
  return packetRows.map(({ headNumber: _h, ...p }) => ({ ...p, markdown: headOf.get(p.id) ?? "" }));
}

/** Inventory rows and their listed sources: all of them, or those of some slugs. */
const TOPIC_COLUMNS = `"slug", "title", "status", "type", "updatedAt", "sources"`;
const TOPIC_SOURCE_COLUMNS = `"slug", "source", "title", "phase"`;
const DOCUMENT_COLUMNS = `"relPath", "area", "source", "slug", "title", "content"`;
const marks = (n: number) => Array.from({ length: n }, () => "?").join(",");

/** Inventory rows and their listed sources: all of them, or those of some slugs. */
export async function indexedTopics(projectId: string, slugs?: readonly string[]): Promise<Pick<IndexedContent, "topics" | "topicSources">> {
  if (!slugs) {
    const [topics, topicSources] = await Promise.all([
      readSql<IndexedContent["topics"][number]>(`SELECT ${TOPIC_COLUMNS} FROM "Topic" WHERE "projectId" = ?`, [projectId]),
      readSql<IndexedContent["topicSources"][number]>(`SELECT ${TOPIC_SOURCE_COLUMNS} FROM "TopicSource" WHERE "projectId" = ? AND "listed" = ?`, [projectId, true]),
    ]);
    return { topics, topicSources };
  }
  const out: Pick<IndexedContent, "topics" | "topicSources"> = { topics: [], topicSources: [] };
  for (const part of chunked(slugs)) {
    out.topics.push(...(await readSql<IndexedContent["topics"][number]>(`SELECT ${TOPIC_COLUMNS} FROM "Topic" WHERE "projectId" = ? AND "slug" IN (${marks(part.length)})`, [projectId, ...part])));
    out.topicSources.push(
      ...(await readSql<IndexedContent["topicSources"][number]>(`SELECT ${TOPIC_SOURCE_COLUMNS} FROM "TopicSource" WHERE "projectId" = ? AND "listed" = ? AND "slug" IN (${marks(part.length)})`, [
        projectId,
        true,
        ...part,
      ])),
    );
  }
  return out;
}

/** Indexed documents: all of them, or those at some paths or in some areas. */
export async function indexedDocuments(projectId: string, only?: { paths?: readonly string[]; areas?: readonly string[] }): Promise<IndexedContent["documents"]> {
  const read = (where: string, params: unknown[]) => readSql<IndexedContent["documents"][number]>(`SELECT ${DOCUMENT_COLUMNS} FROM "Document" WHERE "projectId" = ?${where}`, [projectId, ...params]);
  if (!only) return read("", []);
  const out: IndexedContent["documents"] = [];
  if (only.areas?.length) out.push(...(await read(` AND "area" IN (${marks(only.areas.length)})`, [...only.areas])));
  for (const part of chunked(only.paths ?? [])) out.push(...(await read(` AND "relPath" IN (${marks(part.length)})`, part)));
  return out;
}

/**
 * One page of a project's indexed documents in path order, after `afterPath`: a full search
 * rebuild reads them a page at a time, so its memory does not grow with the project.
 */
export async function indexedDocumentsPage(projectId: string, afterPath: string | null, take: number): Promise<IndexedContent["documents"]> {
  // Plain SQL: through Prisma, reading the documents' text back made about 130 MB of garbage
  // per full rebuild of the bench project, which the heap then grew to hold.
  const after = afterPath === null ? "" : `AND "relPath" > ? `;
  return readSql<IndexedContent["documents"][number]>(
    `SELECT "relPath", "area", "source", "slug", "title", "content" FROM "Document" WHERE "projectId" = ? ${after}ORDER BY "relPath" LIMIT ?`,
    afterPath === null ? [projectId, take] : [projectId, afterPath, take],
  );
}

/**
 * One page of a project's topics in slug order, after `afterSlug`, with their listed sources:
 * a full rebuild reads them a page at a time, like the documents.
 */
export async function indexedTopicsPage(projectId: string, afterSlug: string | null, take: number): Promise<Pick<IndexedContent, "topics" | "topicSources">> {
  const after = afterSlug === null ? "" : `AND "slug" > ? `;
  const topics = await readSql<IndexedContent["topics"][number]>(
    `SELECT "slug", "title", "status", "type", "updatedAt", "sources" FROM "Topic" WHERE "projectId" = ? ${after}ORDER BY "slug" LIMIT ?`,
    afterSlug === null ? [projectId, take] : [projectId, afterSlug, take],
  );
  const topicSources: IndexedContent["topicSources"] = [];
  for (const part of chunked(topics.map((t) => t.slug))) {
    topicSources.push(
      ...(await readSql<IndexedContent["topicSources"][number]>(`SELECT "slug", "source", "title", "phase" FROM "TopicSource" WHERE "projectId" = ? AND "listed" = ? AND "slug" IN (${part.map(() => "?").join(",")})`, [
        projectId,
        true,
        ...part,
      ])),
    );
  }
  return { topics, topicSources };
}

export async function indexedCommits(projectId: string): Promise<IndexedContent["commits"]> {
  return readSql<IndexedContent["commits"][number]>(`SELECT "hash", "subject", "message", "date" FROM "GitCommit" WHERE "projectId" = ?`, [projectId]);
}

// ---------------------------------------------------------------------------------------
// Queries

export interface MatchFilters {
  projectId?: string;
  /** Team mode: the projects the person may see; nothing outside them is matched or counted. */
  visibleProjectIds?: string[] | null;
  kinds: string[];
  status?: string;
  from?: string;
  to?: string;
}

export interface MatchRow {
  projectId: string;
  projectName: string;
  kind: string;
  ref: string;
  title: string;
  status: string | null;
  date: string | null;
  href: string;
  score: number;
  /** The engine's snippet (SQLite) or the body to cut one from (PostgreSQL). */
  snippet: string | null;
  body: string | null;
}

export interface FacetGroup {
  projectId: string;
  projectName: string;
  kind: string;
  status: string | null;
  year: string | null;
  /** Whether these entries pass the query's date filter (always true without one). */
  dateOk: boolean;
  n: number;
}

function filterSql(f: MatchFilters, params: unknown[]): string {
  let sql = "";
  const add = (clause: string, ...values: unknown[]) => {
    sql += clause;
    params.push(...values);
  };
  if (f.projectId) add(` AND e."projectId" = ?`, f.projectId);
  if (f.visibleProjectIds) {
    add(f.visibleProjectIds.length ? ` AND e."projectId" IN (${f.visibleProjectIds.map(() => "?").join(",")})` : " AND 1 = 0", ...f.visibleProjectIds);
  }
  if (f.kinds.length > 0) add(` AND e."kind" IN (${f.kinds.map(() => "?").join(",")})`, ...f.kinds);
  if (f.status) add(` AND e."status" = ?`, f.status);
  if (f.from) add(` AND substr(e."date", 1, 10) >= ?`, f.from);
  if (f.to) add(` AND substr(e."date", 1, 10) <= ?`, f.to);
  return sql;
}

const pg = (sql: string) => {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
};

/**
 * What a query matches, in each engine's query language: the words as typed, and (unless the
 * query has a prefix, see lib/search/text.ts searchesStems) their stems. With stems, every
 * entry that has the stems matches, and those that also have the words as typed rank first.
 */
export interface SearchMatch {
  exact: string;
  stemmed: string | null;
}

/**
 * Added to the score of an entry that has the words as typed, above any stemmed-only match:
 * a query for an identifier (`exportJob`, `JIRA-123`) shows its exact match first, however
 * often other entries use another form of it. Engine ranks stay far below this.
 */
export const EXACT_BONUS = 1_000_000;

/**
 * PostgreSQL: the best `limit` entries for a match that pass the filters, ranked (SQLite
 * answers through search-sqlite.ts). `passing`: how many entries match and pass (from the
 * facet counts). As on SQLite, entries with the words as typed are ranked on "tsv", and
 * stem-only matches on "tsvStem" only when fewer than `limit` of those pass: a common word
 * has more than enough, so its other forms are counted but never ranked (ts_rank_cd reads
 * every matching row's vector).
 */
export async function rankedMatches(match: SearchMatch, filters: MatchFilters, limit: number, passing: number): Promise<MatchRow[]> {
  const db = await getDb();
  const ranked = async (column: "tsv" | "tsvStem", config: "workbench" | "workbench_stem", expr: string, n: number, bonus: number, except: number[]) => {
    const params: unknown[] = [expr];
    let where = filterSql(filters, params);
    if (except.length > 0) {
      where += ` AND e."id" NOT IN (${except.map(() => "?").join(",")})`;
      params.push(...except);
    }
    params.push(n);
    const rows = await db.$queryRawUnsafe<(Omit<MatchRow, "score"> & { id: number; score: number | string })[]>(
      pg(`SELECT e."id", e."projectId", p."name" AS "projectName", e."kind", e."ref", e."title", e."status", e."date", e."href",
          ts_rank_cd(e."${column}", q) AS "score", NULL AS "snippet", e."body"
        FROM "SearchEntry" e JOIN "Project" p ON p."id" = e."projectId", to_tsquery('${config}', ?) q
        WHERE e."${column}" @@ q${where}
        ORDER BY "score" DESC, e."id" LIMIT ?`),
      ...params,
    );
    return rows.map((r) => ({ ...r, score: Number(r.score) + bonus }));
  };
  const exact = await ranked("tsv", "workbench", match.exact, limit, match.stemmed === null ? 0 : EXACT_BONUS, []);
  const rows = [...exact];
  // Every exact match is a stemmed one too: those already ranked are left out of the rest.
  if (match.stemmed !== null && rows.length < limit && rows.length < passing) {
    rows.push(
      ...(await ranked(
        "tsvStem",
        "workbench_stem",
        match.stemmed,
        limit - rows.length,
        0,
        exact.map((r) => r.id),
      )),
    );
  }
  return rows.map(({ id: _id, ...r }) => r);
}

/** Whether a day (YYYY-MM-DD…) lies in a date filter's range; entries without a date never do. */
export function dayInRange(date: string | null, from?: string, to?: string): boolean {
  if (!from && !to) return true;
  if (!date) return false;
  const day = date.slice(0, 10);
  return (!from || day >= from) && (!to || day <= to);
}

/**
 * PostgreSQL: rows of one read with sequential scans off, so a full-text condition is answered
 * by its GIN index. For a word in a third of the entries or more (common once words are
 * stemmed) the planner prefers a sequential scan that tests `@@` on every row, and its cost
 * model leaves out reading each row's vector back from TOAST storage: measured at 100,000
 * entries, that scan took 330 ms for a word in 30% of them and 530 ms for a word in all,
 * the index's bitmap scan 170 ms and 340 ms.
 */
async function readThroughIndexes<T>(sql: string, params: unknown[]): Promise<T[]> {
  noteQuery(sql);
  const client = await pgPooledClient();
  // A client whose ROLLBACK failed may be broken: it is destroyed rather than returned to the pool.
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    await client.query("SET LOCAL enable_seqscan = off");
    const rows = (await client.query(sql, params)).rows as T[];
    await client.query("COMMIT");
    return rows;
  } catch (e) {
    await client.query("ROLLBACK").catch((rollback: unknown) => {
      broken = rollback instanceof Error ? rollback : new Error(String(rollback));
    });
    throw e;
  } finally {
    client.release(broken);
  }
}

/**
 * PostgreSQL: match counts grouped by every facet dimension, with no filter but the words.
 * Grouped by day (not year) so the date filter's range can be applied exactly.
 */
export async function facetGroups(match: SearchMatch, range: { from?: string; to?: string }, visibleProjectIds: string[] | null = null): Promise<FacetGroup[]> {
  await getDb(); // migrated before the first read
  // Hidden projects are neither counted nor allowed to decide the all-words / any-word fallback.
  const visible = visibleProjectIds ? (visibleProjectIds.length ? ` AND e."projectId" IN (${visibleProjectIds.map((_, i) => `$${i + 2}`).join(",")})` : " AND 1 = 0") : "";
  const rows = await readThroughIndexes<{ projectId: string; projectName: string; kind: string; status: string | null; day: string | null; n: number | bigint | string }>(
    `SELECT e."projectId", p."name" AS "projectName", e."kind", e."status", substr(e."date", 1, 10) AS "day", count(*) AS "n"
      FROM "SearchEntry" e JOIN "Project" p ON p."id" = e."projectId"
      WHERE ${match.stemmed === null ? `e."tsv" @@ to_tsquery('workbench', $1)` : `e."tsvStem" @@ to_tsquery('workbench_stem', $1)`}${visible}
      GROUP BY e."projectId", p."name", e."kind", e."status", substr(e."date", 1, 10)`,
    [match.stemmed ?? match.exact, ...(visibleProjectIds ?? [])],
  );
  return rows.map(({ day, n, ...r }) => ({ ...r, year: day ? day.slice(0, 4) : null, dateOk: dayInRange(day, range.from, range.to), n: Number(n) }));
}
