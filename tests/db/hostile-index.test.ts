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
    expect(code(".claude/work/dir-state/state.json")).toContain("unreadable");
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

describe("a git remote carrying the traps (team mode)", () => {
  it("indexes its clone and changes nothing outside it", async () => {
    const { simpleGit } = await import("simple-git");
    const { addProject } = await import("../../lib/projects/add-project");
    const { indexProject } = await import("../../lib/indexer/index-project");
    const { remotesRoot } = await import("../../lib/projects/remote");
    const { makeTempDir } = await import("../helpers/project-builder");
    // Git keeps links (to absolute paths outside too), deep files, binaries, loops; it drops pipes and sockets.
    const traps = TRAP_IDS.filter((t) => !["fifo", "socket", "hard-link", "long-path"].includes(t));
    const src = buildHostileRepo({ traps, logLines: 2000, hugeBytes: 3 * 1024 * 1024 });
    const env = { GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@example.com" };
    const git = (dir: string) => simpleGit({ baseDir: dir, allowEnvironment: Object.keys(env) }).env({ PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...env });
    const bare = path.join(makeTempDir("wb-bare-"), "hostile.git");
    await git(path.dirname(bare)).raw(["init", "--bare", "-q", "-b", "main", bare]);
    await git(src.root).raw(["init", "-q", "-b", "main"]);
    await git(src.root).raw(["add", "-A"]);
    await git(src.root).raw(["commit", "-q", "-m", "traps"]);
    await git(src.root).raw(["push", "-q", bare, "main"]);
    const outsideBefore = treeDigest(src.outside);
    // In the data folder, only the clone and the database may change.
    const dataFiles = () => Object.entries(treeDigest(path.dirname(remotesRoot()))).filter(([k]) => !k.startsWith("remotes/") && !/\.db(-wal|-shm|-journal)?$/.test(k));
    const dataBefore = dataFiles();

    const project = await addProject({ url: `file://${bare}` });
    expect(project.rootPath.startsWith(remotesRoot() + path.sep)).toBe(true);
    await indexProject(project.id);
    await syncRunSearch(project.id);

    const warnings = await warningRows(project.id);
    expect(warnings.some((w) => w.relPath === ".claude/work/leak-topic/state.json" && w.code === "outside_root")).toBe(true);
    expect(warnings.some((w) => w.relPath === ".claude/work/deep-nest/state.json" && w.code === "too_deep")).toBe(true);
    const db = await getDb();
    const stored = [
      await db.document.findMany({ where: { projectId: project.id } }),
      await db.topicSource.findMany({ where: { projectId: project.id } }),
      await db.searchEntry.findMany({ where: { projectId: project.id } }),
      await db.deepRun.findMany({ where: { projectId: project.id } }),
    ];
    expect(JSON.stringify(stored)).not.toContain(src.secret);
    expect(treeDigest(src.outside)).toEqual(outsideBefore);
    expect(dataFiles()).toEqual(dataBefore);
  }, 120_000);
});
