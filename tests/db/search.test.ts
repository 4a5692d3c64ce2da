import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client";
import { deleteProject } from "../../lib/db/repositories/projects";
import { listRuns } from "../../lib/db/repositories/runs";
import { createProjectPacket, saveProjectPacket } from "../../lib/packets/service";
import { HIGHLIGHT_END, HIGHLIGHT_START } from "../../lib/search/schemas";
import { runSearch } from "../../lib/search/service";
import { syncProjectSearch, syncRunSearch } from "../../lib/search/sync";
import { indexFolder } from "../helpers/db";
import { ProjectBuilder, copySampleProject, removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

const marked = (w: string) => `${HIGHLIGHT_START}${w}${HIGHLIGHT_END}`;

describe("full-text search", () => {
  let sampleId = "";
  let sampleRoot = "";
  let otherId = "";

  beforeAll(async () => {
    sampleRoot = copySampleProject();
    sampleId = (await indexFolder(sampleRoot)).projectId;
    await syncRunSearch(sampleId);
    const other = new ProjectBuilder()
      .workState("INTL-1", { type: "epic", status: "in_progress", title: "Café naïve résumé export" })
      .file(".claude/work/INTL-1/summary.md", "# 国际化\n\n東京タワーの検索インデックスを更新する。\n\nПривет мир: экспорт данных.\n")
      .file(".claude/work/INTL-1/notes.md", "# Notes\n\nThe ExportJob queue lives in lib/jobs/export_queue.ts and retries 3.5 times.\n");
    otherId = (await indexFolder(other.root)).projectId;
  });

  it("finds every kind the sample project holds, each linking to its page", async () => {
    const kinds = new Map<string, string>();
    for (const q of ["export", "JIRA", "memory", "initial", "queue"]) {
      for (const h of (await runSearch({ q, project: sampleId, limit: 100 })).hits) kinds.set(h.kind, h.href);
    }
    for (const kind of ["topic", "summary", "document", "requirement", "knowledge", "finding", "memory"]) expect(kinds.has(kind), kind).toBe(true);
    expect(kinds.get("topic")).toMatch(new RegExp(`^/projects/${sampleId}/topics/`));
    expect(kinds.get("finding")).toMatch(new RegExp(`^/projects/${sampleId}/runs/[^/?]+\\?f\\.q=.+&finding=`));
    expect(kinds.get("memory")).toMatch(new RegExp(`^/projects/${sampleId}/memory#M\\d+$`));
  });

  it("ranks, marks the matched words, bounds the hits and counts every match in facets", async () => {
    const r = await runSearch({ q: "export", project: sampleId, limit: 3 });
    expect(r.engine).toMatch(/^(sqlite-fts5|postgres-tsvector)$/);
    expect(r.hits).toHaveLength(3);
    expect(r.total).toBeGreaterThan(3);
    expect(r.hits.map((h) => h.score)).toEqual([...r.hits.map((h) => h.score)].sort((a, b) => b - a));
    expect(r.hits.some((h) => h.snippet.toLowerCase().includes(marked("export").toLowerCase()) || h.title.toLowerCase().includes(marked("export").toLowerCase()))).toBe(true);
    const kindTotal = r.facets.kind.reduce((n, f) => n + f.count, 0);
    expect(kindTotal).toBe(r.total);
    // The project facet ignores the project filter, so other projects' matches show too.
    expect(r.facets.project.map((f) => f.value).sort()).toEqual([sampleId, otherId].sort());
  });

  it("narrows by kind, status and date, and each facet keeps the other filters", async () => {
    const all = await runSearch({ q: "export", project: sampleId });
    const topics = await runSearch({ q: "export", project: sampleId, kind: "topic" });
    expect(topics.hits.every((h) => h.kind === "topic")).toBe(true);
    expect(topics.total).toBe(all.facets.kind.find((f) => f.value === "topic")!.count);
    // The kind facet still lists other kinds while one is chosen.
    expect(topics.facets.kind.length).toBe(all.facets.kind.length);
    const status = topics.facets.status[0]!;
    const byStatus = await runSearch({ q: "export", project: sampleId, kind: ["topic"], status: status.value });
    expect(byStatus.total).toBe(status.count);
    expect(byStatus.hits.every((h) => h.status === status.value)).toBe(true);
    const days = topics.hits
      .map((h) => h.date?.slice(0, 10))
      .filter((d): d is string => Boolean(d))
      .sort();
    expect(new Set(days).size).toBeGreaterThan(1);
    const from = days.at(-1)!;
    const dated = await runSearch({ q: "export", project: sampleId, kind: "topic", from, to: `${from.slice(0, 4)}-12-31` });
    expect(dated.hits.every((h) => h.date!.slice(0, 10) >= from)).toBe(true);
    expect({ days, got: dated.hits.map((h) => h.date?.slice(0, 10)) }).toEqual({ days, got: days.filter((d) => d >= from) });
  });

  it("a date range counts to the day, in the total and in every other facet", async () => {
    const r = await runSearch({ q: "export", project: sampleId, kind: "topic", from: "2026-02-05", to: "2026-02-28" });
    expect(r.hits.length).toBeGreaterThan(0);
    expect(r.total).toBe(r.hits.length);
    expect(r.facets.kind.find((f) => f.value === "topic")?.count).toBe(r.hits.length);
    expect(r.facets.status.reduce((n, f) => n + f.count, 0)).toBe(r.hits.length);
    // The year facet is the date's own dimension: it counts the whole year.
    const all = await runSearch({ q: "export", project: sampleId, kind: "topic" });
    expect(r.facets.year.find((f) => f.value === "2026")?.count).toBe(all.facets.year.find((f) => f.value === "2026")?.count);
  });

  it("an empty project or status means no filter", async () => {
    const all = await runSearch({ q: "export" });
    const r = await runSearch({ q: "export", project: "", status: "" });
    expect(r.total).toBe(all.total);
    expect(r.hits.length).toBe(all.hits.length);
  });

  it("folds accents, splits unspaced scripts into words, and reads Cyrillic", async () => {
    const cafe = await runSearch({ q: "cafe resume", project: otherId });
    expect(cafe.hits[0]?.title).toContain(marked("Café"));
    // Chinese and Japanese match any run of characters, not only whole dictionary words.
    const tower = await runSearch({ q: "タワー", project: otherId });
    expect(tower.total).toBe(1);
    expect(tower.hits[0]!.snippet.replace(/[\uE000\uE001]/g, "")).toContain("東京タワーの検索");
    // FTS5 marks the matched phrase as one span, the PostgreSQL snippet each character.
    expect(tower.hits[0]!.snippet).toContain(`${HIGHLIGHT_START}タ`);
    expect(tower.hits[0]!.snippet).not.toContain("\u200B");
    expect((await runSearch({ q: "京タ", project: otherId })).total).toBe(1);
    expect((await runSearch({ q: "タ京", project: otherId })).total).toBe(0);
    expect((await runSearch({ q: "экспорт", project: otherId })).total).toBe(1);
  });

  it("matches words inside paths and identifiers, phrases in order, and prefixes", async () => {
    expect((await runSearch({ q: "export_queue", project: otherId })).total).toBe(1);
    expect((await runSearch({ q: "queue", project: otherId })).total).toBe(1);
    expect((await runSearch({ q: '"lives in lib"', project: otherId })).total).toBe(1);
    expect((await runSearch({ q: '"lib in lives"', project: otherId })).total).toBe(0);
    expect((await runSearch({ q: "Expo*", project: otherId })).total).toBeGreaterThan(0);
    expect((await runSearch({ q: "3.5", project: otherId })).total).toBe(1);
  });

  it("treats query syntax as words: operators, quotes and brackets never reach the engine", async () => {
    for (const q of ['"unclosed', "NEAR(export", "export OR", "-export", "title:export", "*", "a AND (b", '\'; DROP TABLE "SearchEntry"; --', "\u0000export"]) {
      await expect(runSearch({ q, project: otherId })).resolves.toMatchObject({ query: { q: expect.any(String) } });
    }
    expect((await runSearch({ q: "(queue) AND", project: otherId })).total).toBe(1);
  });

  it("falls back to any word when no entry has every word, and says so", async () => {
    const r = await runSearch({ q: "ExportJob zzqqxx", project: otherId });
    expect(r.matched).toBe("any");
    expect(r.total).toBe(1);
    expect((await runSearch({ q: "ExportJob queue", project: otherId })).matched).toBe("all");
  });

  it("refuses empty, oversized and unknown-kind queries with the field named", async () => {
    await expect(runSearch({ q: "   " })).rejects.toThrow(/^q: /);
    await expect(runSearch({ q: "x".repeat(301) })).rejects.toThrow(/^q: /);
    await expect(runSearch({ q: "x", kind: "spaceship" })).rejects.toThrow(/^kind: .*spaceship/);
    await expect(runSearch({ q: "x", limit: 101 })).rejects.toThrow(/^limit: /);
    await expect(runSearch({ q: "x", from: "yesterday" })).rejects.toThrow(/^from: /);
  });

  it("re-indexing an unchanged project writes nothing; a changed file rewrites only its entry", async () => {
    expect(await syncProjectSearch(sampleId)).toEqual({ written: 0, removed: 0 });
    expect(await syncRunSearch(sampleId)).toEqual({ written: 0, removed: 0 });
    const runsBefore = (await listRuns(sampleId)).map((r) => r.id).sort();
    fs.appendFileSync(path.join(sampleRoot, "knowledge/product/context.md"), "\nZephyrine appendix.\n");
    const { stats } = await indexFolder(sampleRoot);
    expect(stats.filesChanged).toBe(1);
    expect((await runSearch({ q: "zephyrine", project: sampleId })).hits.map((h) => h.kind)).toEqual(["knowledge"]);
    // Runs keep their ids across a re-index, so finding links and entries stay valid.
    expect((await listRuns(sampleId)).map((r) => r.id).sort()).toEqual(runsBefore);
    expect(await syncRunSearch(sampleId)).toEqual({ written: 0, removed: 0 });
  });

  it("indexes every packet of a project with hundreds of them", async () => {
    const b = new ProjectBuilder().workState("MANY-1", { type: "epic", status: "in_progress" });
    const { projectId } = await indexFolder(b.root);
    for (let i = 0; i < 520; i++) await createProjectPacket(projectId, { title: `Bulk packet ${i}`, markdown: `## Context Packet\n\n**Task**: Quokkabulk item ${i}\n` });
    await syncProjectSearch(projectId);
    expect((await runSearch({ q: "quokkabulk", project: projectId })).total).toBe(520);
  }, 120_000);

  it("a packet is searchable as soon as it is saved, with its review status", async () => {
    const p = await createProjectPacket(sampleId, { title: "Importer quarantine", markdown: "## Context Packet\n\n**Task**: Quarantine the xylophone importer\n" });
    let r = await runSearch({ q: "xylophone", project: sampleId });
    expect(r.hits.map((h) => [h.kind, h.ref, h.status])).toEqual([["packet", p.id, "draft"]]);
    await saveProjectPacket(sampleId, p.id, { markdown: "## Context Packet\n\n**Task**: Quarantine the marimba importer\n" });
    expect((await runSearch({ q: "xylophone", project: sampleId })).total).toBe(0);
    r = await runSearch({ q: "marimba", project: sampleId });
    expect(r.hits[0]?.href).toBe(`/projects/${sampleId}/packets/${p.id}`);
  });

  it("a memory.yml that cannot be read keeps the memory entries indexed before", async () => {
    const before = (await runSearch({ q: "exports", project: sampleId, kind: "memory" })).total;
    expect(before).toBeGreaterThan(0);
    const file = path.join(sampleRoot, ".coord/memory.yml");
    const good = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, "version: 2\nevents: [ {broken\n");
    try {
      await syncProjectSearch(sampleId);
      expect((await runSearch({ q: "exports", project: sampleId, kind: "memory" })).total).toBe(before);
    } finally {
      fs.writeFileSync(file, good);
    }
  });

  it("deleting a project removes its entries from the index", async () => {
    const b = new ProjectBuilder().workState("GONE-1", { type: "epic", status: "done", title: "Quokka migration" });
    const { projectId } = await indexFolder(b.root);
    expect((await runSearch({ q: "quokka" })).total).toBeGreaterThan(0);
    await deleteProject(projectId);
    expect((await runSearch({ q: "quokka" })).total).toBe(0);
    const db = await getDb();
    expect(await db.searchEntry.count({ where: { projectId } })).toBe(0);
  });
});
