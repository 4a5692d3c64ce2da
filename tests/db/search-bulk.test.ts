import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client";
import { databaseKind } from "../../lib/db/database-url";
import { applyEntryChanges, type EntryChanges, type StoredEntry } from "../../lib/db/repositories/search";
import { countQueries } from "../../lib/db/query-stats";
import { runSearch } from "../../lib/search/service";
import { syncProjectSearch } from "../../lib/search/sync";
import { indexFolder } from "../helpers/db";
import { copySampleProject, removeTempDirs } from "../helpers/project-builder";

// Before the database is first opened in this file (tests/db/setup.ts gives each file its own).
process.env.WORKBENCH_QUERY_STATS = "1";

afterAll(removeTempDirs);

const entry = (n: number, word: string): StoredEntry => ({
  kind: "document",
  ref: `bulk/doc-${n}.md`,
  title: `Bulk document ${n}`,
  body: `Body of bulk document ${n} mentioning ${word}${n}`,
  status: null,
  date: null,
  href: `/bulk/${n}`,
  hash: `h${n}`,
});

const changesOf = (entries: StoredEntry[]): EntryChanges => ({
  upsert: entries.map((e) => ({ entry: e, words: () => ({ title: e.title, body: e.body }) })),
  remove: [],
});

async function hits(projectId: string, q: string): Promise<string[]> {
  const out = await runSearch({ q, project: projectId });
  return out.hits.map((h) => h.ref);
}

async function insertTriggers(): Promise<number> {
  const db = await getDb();
  const rows = await db.$queryRawUnsafe<{ n: bigint | number }[]>(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'trigger' AND name = 'SearchEntry_fts_insert'`);
  return Number(rows[0]!.n);
}

describe("bulk search entry", () => {
  let projectId = "";
  beforeAll(async () => {
    projectId = (await indexFolder(copySampleProject())).projectId;
  });

  it("a large batch is searchable, word by word, and later single entries still index themselves", async () => {
    const many = Array.from({ length: 1500 }, (_, i) => entry(i, "zyxbulkword"));
    await applyEntryChanges(projectId, changesOf(many));
    expect(await hits(projectId, "zyxbulkword777")).toEqual(["bulk/doc-777.md"]);
    expect(await hits(projectId, "zyxbulkword0")).toEqual(["bulk/doc-0.md"]);
    expect(await hits(projectId, "zyxbulkword1499")).toEqual(["bulk/doc-1499.md"]);
    if (databaseKind() === "sqlite") {
      expect(await insertTriggers()).toBe(1);
      // The bulk fill's larger FTS5 buffer is not left to ordinary writes.
      const db = await getDb();
      const cfg = await db.$queryRawUnsafe<{ v: number | bigint }[]>(`SELECT v FROM "SearchEntryFts_config" WHERE k = 'hashsize'`);
      expect(cfg.map((r) => Number(r.v))).toEqual([1024 * 1024]);
    }

    // A small change goes through the trigger again.
    await applyEntryChanges(projectId, changesOf([entry(5000, "qwvsingleword")]));
    expect(await hits(projectId, "qwvsingleword5000")).toEqual(["bulk/doc-5000.md"]);
  });

  it("a batch that fails leaves neither rows, index words nor a missing trigger behind", async () => {
    const db = await getDb();
    const before = await db.searchEntry.count({ where: { projectId } });
    const many = Array.from({ length: 1200 }, (_, i) => entry(10_000 + i, "plmfailedword"));
    // A row the table refuses (no title), after 1,200 good ones: the whole batch must go.
    many.push({ ...entry(20_000, "plmfailedword"), title: null as unknown as string });
    await expect(applyEntryChanges(projectId, changesOf(many))).rejects.toThrow();
    expect(await db.searchEntry.count({ where: { projectId } })).toBe(before);
    expect(await hits(projectId, "plmfailedword10005")).toEqual([]);
    if (databaseKind() === "sqlite") expect(await insertTriggers()).toBe(1);
  });

  it("a whole rebuild pages through documents: every page is indexed and gone documents leave the index", async () => {
    const db = await getDb();
    const { projectId: pid } = await indexFolder(copySampleProject());
    // More than two pages (250 documents each), with a word on each side of every page edge.
    const paths = Array.from({ length: 610 }, (_, i) => `notes/page-${String(i).padStart(4, "0")}.md`);
    await db.document.createMany({ data: paths.map((relPath, i) => ({ projectId: pid, relPath, area: "artifact", title: null, content: `Note ${i} about vxqpage${i}` })) });
    await syncProjectSearch(pid);
    for (const i of [0, 249, 250, 499, 500, 609]) expect(await hits(pid, `vxqpage${i}`)).toEqual([paths[i]]);

    await db.document.deleteMany({ where: { projectId: pid, relPath: { in: paths.slice(300) } } });
    await syncProjectSearch(pid);
    expect(await hits(pid, "vxqpage299")).toEqual([paths[299]]);
    expect(await hits(pid, "vxqpage300")).toEqual([]);
    expect(await hits(pid, "vxqpage609")).toEqual([]);
    expect(await db.searchEntry.count({ where: { projectId: pid, ref: { startsWith: "notes/page-" } } })).toBe(300);
  });

  it("a whole rebuild pages through topics: each topic keeps its own sources' words across page edges", async () => {
    const db = await getDb();
    const { projectId: pid } = await indexFolder(copySampleProject());
    // More than two pages (250 topics each); every topic has a listed source whose phase names
    // it, and an unlisted one whose words must stay out.
    const slugs = Array.from({ length: 610 }, (_, i) => `zz-topic-${String(i).padStart(4, "0")}`);
    await db.topic.createMany({ data: slugs.map((slug, i) => ({ projectId: pid, slug, title: `Topic ${i} wqztopic${i}`, sources: "work" })) });
    await db.topicSource.createMany({
      data: slugs.flatMap((slug, i) => [
        { projectId: pid, source: "work", slug, relPath: `.claude/work/${slug}`, phase: `wqzphase${i}` },
        { projectId: pid, source: "proposal", slug, relPath: `.claude/proposals/${slug}.md`, phase: `wqzhidden${i}`, listed: false },
      ]),
    });
    const { statements } = await countQueries(() => syncProjectSearch(pid));
    // Read a page at a time: 610 topics and the sample's own take three pages, plus the empty one that ends the rebuild.
    expect(statements.filter((sql) => /FROM "Topic" WHERE/.test(sql) && /LIMIT/.test(sql)).length).toBe(4);
    for (const i of [0, 249, 250, 499, 500, 609]) {
      expect(await hits(pid, `wqztopic${i}`)).toEqual([slugs[i]]);
      expect(await hits(pid, `wqzphase${i}`)).toEqual([slugs[i]]);
      expect(await hits(pid, `wqzhidden${i}`)).toEqual([]);
    }

    await db.topic.deleteMany({ where: { projectId: pid, slug: { in: slugs.slice(300) } } });
    await syncProjectSearch(pid);
    expect(await hits(pid, "wqztopic299")).toEqual([slugs[299]]);
    expect(await hits(pid, "wqztopic300")).toEqual([]);
    expect(await db.searchEntry.count({ where: { projectId: pid, kind: "topic", ref: { startsWith: "zz-topic-" } } })).toBe(300);
  });
});
