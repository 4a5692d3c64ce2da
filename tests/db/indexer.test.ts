import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client";
import type { IndexStats } from "../../lib/db/dto";
import { indexFolder, rowCounts, topicSourceRows, topicTable, warningRows } from "../helpers/db";
import { ProjectBuilder, copySampleProject, editFile, removeTempDirs, setAllMtimes } from "../helpers/project-builder";
import { buildSampleRepo } from "../helpers/sample-project";

afterAll(removeTempDirs);

/** Whole-second mtimes: exactly representable, so only deliberate edits count as changes. */
const T0 = 1_770_000_000;
const T1 = T0 + 3600;

const SAMPLE_TOPICS = [
  { slug: "JIRA-123", status: "in_progress", sources: "work", updatedAt: "2026-02-09T14:30:00Z", title: "User Export Feature", type: "implementation" },
  { slug: "PROJ-42", status: "in_progress", sources: "work", updatedAt: "2026-02-06T11:20:00Z", title: "Customer Data Portability", type: "epic" },
  { slug: "api-refactor", status: "paused", sources: "refactoring", updatedAt: "2026-02-04T17:45:00Z", title: "API Controller Cleanup", type: "refactoring" },
  { slug: "export-approaches", status: "promoted", sources: "brainstorm", updatedAt: "2026-02-02T08:45:00Z", title: "User Export Approaches", type: "brainstorm" },
  { slug: "notifications-revamp", status: "in_progress", sources: "brainstorm", updatedAt: "2026-02-11T17:05:00Z", title: "Order Notifications Revamp", type: "brainstorm" },
  { slug: "rate-limits", status: "final", sources: "proposal", updatedAt: null, title: "Per-client API Rate Limits", type: "proposal" },
  { slug: "search-brainstorm", status: "in_progress", sources: "brainstorm", updatedAt: "2026-01-08T16:10:00Z", title: "Order Search Improvements", type: "brainstorm" },
  { slug: "sso-integration", status: "draft", sources: "proposal", updatedAt: null, type: "proposal" },
  { slug: "user-auth", status: "completed", sources: "work", updatedAt: "2026-01-20T16:40:00Z", title: "User Authentication", type: "requirements" },
];

describe("indexing the sample project", () => {
  let root: string;
  let projectId: string;
  let first: IndexStats;
  let countsAfterFull: Record<string, number>;
  let topicsAfterFull: Awaited<ReturnType<typeof topicTable>>;
  let warningsAfterFull: Awaited<ReturnType<typeof warningRows>>;

  beforeAll(async () => {
    root = (await buildSampleRepo()).targetDir;
    setAllMtimes(root, T0);
    ({ projectId, stats: first } = await indexFolder(root));
    countsAfterFull = await rowCounts(projectId);
    topicsAfterFull = await topicTable(projectId);
    warningsAfterFull = await warningRows(projectId);
  });

  it("a full index reads every file, the nine listed topics and the git history", () => {
    expect(first.filesChanged).toBe(first.filesTotal);
    expect(first.filesTotal).toBeGreaterThan(40);
    expect(first.filesRemoved).toBe(0);
    expect(first.topics).toBe(9);
    expect(first.commits).toBe(9);
    expect(first.branches).toBe(4);
    expect(first.gitSkipped).toBe(false);
    expect(topicsAfterFull.map((t) => t.slug)).toEqual(SAMPLE_TOPICS.map((t) => t.slug));
    for (const expected of SAMPLE_TOPICS) {
      expect(topicsAfterFull.find((t) => t.slug === expected.slug)).toMatchObject(expected);
    }
  });

  it("the hand-made brainstorm not in the valid brainstorm manifest is stored but not an inventory topic", async () => {
    const rows = await topicSourceRows(projectId);
    expect(rows.find((r) => r.slug === "sso-ideas")).toMatchObject({ source: "brainstorm", listed: false });
    expect(topicsAfterFull.some((t) => t.slug === "sso-ideas")).toBe(false);
    expect(rows.find((r) => r.slug === "search-brainstorm")).toMatchObject({ source: "brainstorm", legacy: true, listed: true });
  });

  it("records exactly one warning: the corrupt proposals manifest, named with its position", () => {
    expect(warningsAfterFull).toEqual([
      {
        relPath: ".claude/proposals/manifest.json",
        field: null,
        code: "corrupt_manifest",
        message: ".claude/proposals/manifest.json: not valid JSON at line 20, column 17 (unexpected end of string). Falling back to a directory scan of .claude/proposals/.",
      },
    ]);
  });

  it("stores documents for artifacts, requirements tickets, product knowledge and the knowledge base's docs/, and the layouts", async () => {
    const db = await getDb();
    const areas = await db.document.groupBy({ by: ["area"], where: { projectId }, _count: true, orderBy: { area: "asc" } });
    // kb: every markdown file of docs/ (the context-loader's knowledge base), its indexes included.
    expect(Object.fromEntries(areas.map((a) => [a.area, a._count]))).toEqual({ artifact: expect.any(Number), kb: 12, product: 4, requirements: 8 });
    const project = await db.project.findUniqueOrThrow({ where: { id: projectId } });
    expect(JSON.parse(project.configJson)[0].artifacts.requirements.relPath).toBe("knowledge/requirements");
    expect(project.gitFingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  describe("re-index with no change", () => {
    let again: IndexStats;
    beforeAll(async () => {
      again = (await indexFolder(root)).stats;
    });

    it("reports no changed or removed file and skips git", () => {
      expect(again).toMatchObject({ filesTotal: first.filesTotal, filesChanged: 0, filesRemoved: 0, topics: 9, documents: 0, gitSkipped: true, commits: 0, branches: 0 });
    });

    it("leaves topic rows, counts and warnings exactly as they were", async () => {
      expect(await topicTable(projectId)).toEqual(topicsAfterFull);
      expect(await warningRows(projectId)).toEqual(warningsAfterFull);
      expect(await rowCounts(projectId)).toEqual(countsAfterFull);
    });
  });

  describe("editing one state.json", () => {
    let edited: IndexStats;
    let before: Awaited<ReturnType<typeof topicSourceRows>>;
    beforeAll(async () => {
      before = await topicSourceRows(projectId);
      const rel = ".claude/work/PROJ-42/state.json";
      const state = JSON.parse(fs.readFileSync(path.join(root, rel), "utf8")) as Record<string, unknown>;
      state.title = "Customer Data Portability (wave 2)";
      state.status = "completed";
      state.updated_at = "2026-02-12T09:00:00Z";
      editFile(root, rel, JSON.stringify(state, null, 2), T1);
      edited = (await indexFolder(root)).stats;
    });

    it("re-reads only that file and updates its topic's title and status", async () => {
      expect(edited.filesChanged).toBe(1);
      expect(edited.filesRemoved).toBe(0);
      expect(edited.gitSkipped).toBe(true);
      const proj = (await topicTable(projectId)).find((t) => t.slug === "PROJ-42");
      expect(proj).toMatchObject({ title: "Customer Data Portability (wave 2)", status: "completed", updatedAt: "2026-02-12T09:00:00Z" });
    });

    it("leaves every other topic as it was", async () => {
      const others = (rows: Awaited<ReturnType<typeof topicTable>>) => rows.filter((t) => t.slug !== "PROJ-42");
      expect(others(await topicTable(projectId))).toEqual(others(topicsAfterFull));
      const after = await topicSourceRows(projectId);
      const keep = (rows: typeof after) => rows.filter((r) => r.slug !== "PROJ-42");
      expect(keep(after)).toEqual(keep(before));
    });
  });

  describe("removing a work session from disk and from the manifest", () => {
    let stats: IndexStats;
    beforeAll(async () => {
      fs.rmSync(path.join(root, ".claude/work/PROJ-42"), { recursive: true });
      const manifestRel = ".claude/work/manifest.json";
      const m = JSON.parse(fs.readFileSync(path.join(root, manifestRel), "utf8")) as { items: { identifier: string }[]; total_items: number };
      m.items = m.items.filter((i) => i.identifier !== "PROJ-42");
      m.total_items = m.items.length;
      editFile(root, manifestRel, JSON.stringify(m, null, 2), T1 + 60);
      stats = (await indexFolder(root)).stats;
    });

    it("removes its topic, files and documents and keeps the rest", async () => {
      expect(stats.filesRemoved).toBe(1);
      const slugs = (await topicTable(projectId)).map((t) => t.slug);
      expect(slugs).not.toContain("PROJ-42");
      expect(slugs).toEqual(SAMPLE_TOPICS.map((t) => t.slug).filter((s) => s !== "PROJ-42"));
      const db = await getDb();
      expect(await db.topicSource.count({ where: { projectId, slug: "PROJ-42" } })).toBe(0);
      expect(await db.sourceFile.count({ where: { projectId, relPath: { startsWith: ".claude/work/PROJ-42/" } } })).toBe(0);
      expect(await db.document.count({ where: { projectId, relPath: { startsWith: ".claude/work/PROJ-42/" } } })).toBe(0);
    });
  });
});

describe("deleting a work folder (no manifest)", () => {
  it("removes its topic on the next index; the other session stays", async () => {
    const b = new ProjectBuilder()
      .workState("KEEP-1", { type: "implementation", status: "in_progress", title: "Keep", updated_at: "2026-01-01T00:00:00Z" })
      .workState("DROP-1", { type: "requirements", status: "completed", title: "Drop", updated_at: "2026-01-02T00:00:00Z" })
      .file(".claude/work/DROP-1/context/notes.md", "# notes\n");
    setAllMtimes(b.root, T0);
    const { projectId, stats } = await indexFolder(b.root);
    expect(stats.topics).toBe(2);
    b.remove(".claude/work/DROP-1");
    const second = (await indexFolder(b.root)).stats;
    expect(second).toMatchObject({ filesChanged: 0, filesRemoved: 2, topics: 1 });
    expect((await topicTable(projectId)).map((t) => t.slug)).toEqual(["KEEP-1"]);
    const db = await getDb();
    expect(await db.document.count({ where: { projectId, slug: "DROP-1" } })).toBe(0);
  });

  it("a new folder appears as a topic without re-reading the others", async () => {
    const b = new ProjectBuilder().workState("A-1", { type: "epic", status: "in_progress" });
    setAllMtimes(b.root, T0);
    const { projectId } = await indexFolder(b.root);
    b.workState("B-2", { type: "epic", status: "completed", title: "New one" });
    fs.utimesSync(b.abs(".claude/work/B-2/state.json"), T1, T1);
    const stats = (await indexFolder(b.root)).stats;
    expect(stats).toMatchObject({ filesChanged: 1, topics: 2 });
    expect((await topicTable(projectId)).map((t) => [t.slug, t.title])).toEqual([
      ["A-1", null],
      ["B-2", "New one"],
    ]);
  });
});

describe("a configuration change", () => {
  it("re-indexes everything from the new locations", async () => {
    const b = new ProjectBuilder().workState("OLD-1", { type: "epic" }).workState("NEW-1", { type: "epic" }, "sessions/work");
    setAllMtimes(b.root, T0);
    const { projectId } = await indexFolder(b.root);
    expect((await topicTable(projectId)).map((t) => t.slug)).toEqual(["OLD-1"]);
    b.config("storage:\n  locations:\n    s: {type: directory, path: sessions}\n  artifacts:\n    work: {location: s, subdir: work}\n");
    const stats = (await indexFolder(b.root)).stats;
    expect(stats.filesChanged).toBe(stats.filesTotal);
    expect((await topicTable(projectId)).map((t) => t.slug)).toEqual(["NEW-1"]);
  });
});

describe("corrupt JSON written into a state.json", () => {
  let root: string;
  let projectId: string;
  let topicsBefore: Awaited<ReturnType<typeof topicTable>>;

  beforeAll(async () => {
    root = copySampleProject();
    setAllMtimes(root, T0);
    ({ projectId } = await indexFolder(root));
    topicsBefore = await topicTable(projectId);
    editFile(root, ".claude/work/user-auth/state.json", '{\n  "title": "User Authentication",\n  "status": completed\n}\n', T1);
    await indexFolder(root);
  });

  it("records a warning that names the file and the position", async () => {
    const w = (await warningRows(projectId)).filter((x) => x.relPath === ".claude/work/user-auth/state.json");
    expect(w).toHaveLength(1);
    expect(w[0]!.code).toBe("corrupt_json");
    expect(w[0]!.message).toContain(".claude/work/user-auth/state.json");
    expect(w[0]!.message).toMatch(/line 3, column 13/);
  });

  it("keeps the earlier warnings (the corrupt proposals manifest)", async () => {
    expect((await warningRows(projectId)).map((w) => w.relPath)).toContain(".claude/proposals/manifest.json");
  });

  it("keeps the session's topic from its manifest entry", async () => {
    expect((await topicTable(projectId)).find((t) => t.slug === "user-auth")).toMatchObject({ title: "User Authentication", status: "completed" });
  });

  it("leaves every other topic as it was", async () => {
    const others = (rows: typeof topicsBefore) => rows.filter((t) => t.slug !== "user-auth");
    expect(others(await topicTable(projectId))).toEqual(others(topicsBefore));
  });

  it("repairing the file clears its warning", async () => {
    editFile(root, ".claude/work/user-auth/state.json", fs.readFileSync(path.join(copySampleProject(), ".claude/work/user-auth/state.json"), "utf8"), T1 + 60);
    await indexFolder(root);
    expect((await warningRows(projectId)).map((w) => w.relPath)).toEqual([".claude/proposals/manifest.json"]);
  });
});

describe("file fingerprints with the sub-millisecond mtimes real file systems give", () => {
  it("a second index of an unchanged project finds no changed file", async () => {
    const root = copySampleProject();
    // A nanosecond timestamp like the ones the kernel stamps on every write.
    execFileSync("touch", ["-d", "@1770000000.123456789", path.join(root, ".claude/work/JIRA-123/state.json")]);
    const mtime = fs.statSync(path.join(root, ".claude/work/JIRA-123/state.json")).mtimeMs;
    expect(mtime % 1).not.toBe(0);
    await indexFolder(root);
    const again = (await indexFolder(root)).stats;
    expect(again.filesChanged).toBe(0);
  });
});
