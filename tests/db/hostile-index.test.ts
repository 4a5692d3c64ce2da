/**
 * Indexing a repository built to abuse the Workbench: the job finishes, every trap becomes a
 * warning naming its file and reason, nothing outside the project is read or stored, and what
 * was indexed before the traps were set is still there.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client";
import type { IndexStats } from "../../lib/db/dto";
import { runSearch } from "../../lib/search/service";
import { syncRunSearch } from "../../lib/search/sync";
import { indexFolder, topicTable, warningRows } from "../helpers/db";
import { TRAP_IDS, addTraps, buildHostileRepo, treeDigest, type HostileRepo } from "../helpers/hostile-repo";
import { removeTempDirs } from "../helpers/project-builder";
import fs from "node:fs";
import path from "node:path";

afterAll(removeTempDirs);

describe("indexing a hostile repository", () => {
  let repo: HostileRepo;
  let projectId: string;
  let cleanTopics: Awaited<ReturnType<typeof topicTable>>;
  let outsideBefore: Record<string, string>;
  let stats: IndexStats;
  let warnings: Awaited<ReturnType<typeof warningRows>>;
  const code = (rel: string) => warnings.filter((w) => w.relPath === rel).map((w) => w.code);

  beforeAll(async () => {
    repo = buildHostileRepo({ traps: [] });
    ({ projectId } = await indexFolder(repo.root));
    cleanTopics = await topicTable(projectId);
    repo = addTraps(repo, TRAP_IDS, { logLines: 5000, hugeBytes: 3 * 1024 * 1024 });
    outsideBefore = treeDigest(repo.outside);
    ({ stats } = await indexFolder(repo.root));
    await syncRunSearch(projectId);
    warnings = await warningRows(projectId);
  }, 120_000);

  it("finishes, keeping every topic indexed before the traps were set", async () => {
    expect(stats.filesTotal).toBeGreaterThan(60);
    const now = await topicTable(projectId);
    for (const t of cleanTopics) expect(now.find((n) => n.slug === t.slug)).toEqual(t);
  });

  it("names every trap file with its reason", () => {
    expect(code(".claude/work/deep-nest/state.json")).toContain("too_deep");
    expect(code(".claude/work/fifo-topic/state.json")).toContain("not_regular");
    expect(code(".claude/work/JIRA-123/context/fifo-summary.md")).toContain("not_regular");
    expect(code(".claude/work/leak-topic/state.json")).toContain("outside_root");
    expect(code(".claude/work/JIRA-123/context/leak-summary.md")).toContain("outside_root");
    expect(code(".claude/work/outdir-topic")).toContain("outside_root");
    expect(code(".claude/work/loop-topic")).toContain("symlink_loop");
    expect(code(".claude/work/JIRA-123/context/binary-summary.md")).toContain("binary");
    expect(code(".claude/work/binary-topic/state.json")).toContain("binary");
    expect(code(".claude/work/latin1-topic/state.json")).toContain("invalid_utf8");
    expect(code(".claude/work/dir-state/state.json")).toContain("not_regular");
    expect(code(".codex/configuration.yml")).toContain("corrupt_yaml");
    expect(code("knowledge/product/leak.md")).toContain("outside_root");
    expect(code(".opencode/specs/hostile/link-out/context/seats/iter-003/leak.json")).toContain("outside_root");
    expect(code(".opencode/specs/hostile/escape-context/context")).toContain("outside_root");
    for (const w of warnings) expect(w.message).toContain(w.relPath.slice(0, 40));
  });

  it("stores nothing from outside the project and changes nothing there", async () => {
    const db = await getDb();
    const tables = [
      await db.document.findMany({ where: { projectId } }),
      await db.topicSource.findMany({ where: { projectId } }),
      await db.topic.findMany({ where: { projectId } }),
      await db.deepRun.findMany({ where: { projectId } }),
      await db.indexWarning.findMany({ where: { projectId } }),
      await db.searchEntry.findMany({ where: { projectId } }),
    ];
    expect(JSON.stringify(tables)).not.toContain(repo.secret);
    expect((await runSearch({ q: repo.secret })).total).toBe(0);
    expect(treeDigest(repo.outside)).toEqual(outsideBefore);
  });

  it("a re-index with no change gives the same warnings, once each", async () => {
    await indexFolder(repo.root);
    const again = await warningRows(projectId);
    expect(again.map((w) => `${w.relPath} ${w.code}`).sort()).toEqual(warnings.map((w) => `${w.relPath} ${w.code}`).sort());
  });

  it("a fixed trap stops warning on the next incremental index", async () => {
    fs.unlinkSync(path.join(repo.root, ".claude/work/loop-topic"));
    await indexFolder(repo.root);
    expect((await warningRows(projectId)).filter((w) => w.relPath === ".claude/work/loop-topic")).toEqual([]);
  });
});
