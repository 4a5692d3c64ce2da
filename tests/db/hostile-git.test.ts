/**
 * A repository's own git configuration (and every file it includes) must not make the Workbench
 * start a program other than git, read a file outside the project, or hang. Each trap of
 * tests/helpers/hostile-git.ts names a marker program; every git call path runs against the
 * traps (one at a time, then all at once) and the marker file must stay absent.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitFingerprint, isGitRepo, readBranches, readCommits } from "../../lib/core/git";
import { getDb } from "../../lib/db/client";
import { getJob } from "../../lib/db/repositories/jobs";
import { startIndexJob, waitForJob } from "../../lib/indexer/jobs";
import { getCommit } from "../../lib/inventory/service";
import { addProject } from "../../lib/projects/add-project";
import { fetchProject } from "../../lib/projects/remote-projects";
import { BREAKING_GIT_TRAPS, GIT_TRAP_IDS, buildHostileGit, type GitTrapId, type HostileGit } from "../helpers/hostile-git";
import { treeDigest } from "../helpers/hostile-repo";
import { removeTempDirs } from "../helpers/project-builder";
import { runWorkbench } from "../helpers/run-cli";

afterAll(removeTempDirs);

/** Bounded time: a git call that waits on a named pipe or a program must not stall the caller. */
async function within<T>(ms: number, what: string, run: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: still running after ${ms} ms`)), ms)));
  try {
    return await Promise.race([run(), late]);
  } finally {
    clearTimeout(timer);
  }
}

const intact = (trap: GitTrapId) => !BREAKING_GIT_TRAPS.includes(trap);

async function storedCommits(projectId: string): Promise<{ hash: string; subject: string; message: string }[]> {
  const db = await getDb();
  return db.gitCommit.findMany({ where: { projectId }, orderBy: { date: "desc" }, select: { hash: true, subject: true, message: true } });
}

async function everythingStored(projectId: string): Promise<string> {
  const db = await getDb();
  const where = { where: { projectId } };
  return JSON.stringify([await db.gitCommit.findMany(where), await db.gitBranch.findMany(where), await db.document.findMany(where), await db.indexWarning.findMany(where)]);
}

describe("one git trap at a time", () => {
  it.each(GIT_TRAP_IDS)("%s: the git readers of the indexer run nothing and read what they should", async (trap) => {
    const repo = buildHostileGit([trap]);
    const read = await within(20_000, trap, async () => ({
      isRepo: await isGitRepo(repo.root),
      fingerprint: await gitFingerprint(repo.root),
      branches: await readBranches(repo.root).catch((e: unknown) => e as Error),
      commits: await readCommits(repo.root).catch((e: unknown) => e as Error),
    }));
    expect(repo.fired()).toEqual([]);
    expect(read.isRepo).toBe(true);
    if (!intact(trap)) return;
    expect(read.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    if (read.commits instanceof Error || read.branches instanceof Error) throw read.commits instanceof Error ? read.commits : read.branches;
    expect(read.commits.map((c) => c.subject)).toEqual(repo.subjects);
    // 13 would mean a file outside (the secret include) was read.
    expect(read.commits.every((c) => c.shortHash.length === 7)).toBe(true);
    expect(read.branches.map((b) => b.name).sort()).toEqual(["feature/GIT-1", "main"]);
    expect(JSON.stringify(read)).not.toContain(repo.secret);
  });

  it.each(GIT_TRAP_IDS)("%s: cloning and fetching the repository as a remote run nothing", async (trap) => {
    const repo = buildHostileGit([trap]);
    const outcome = await within(30_000, trap, async () => {
      try {
        const project = await addProject({ url: `file://${repo.bare}` });
        const fetched = await fetchProject(project.id, { startJob: false });
        return { project, fetched };
      } catch (e) {
        return e as Error;
      }
    });
    expect(repo.fired()).toEqual([]);
    if (!intact(trap)) return;
    if (outcome instanceof Error) throw outcome;
    expect(fs.readFileSync(path.join(outcome.project.rootPath, "README.md"), "utf8")).toContain("Hostile git");
    expect(outcome.fetched.changed).toBe(false);
  });
});

describe("every git trap at once, through every git call path", () => {
  let repo: HostileGit;
  let outsideBefore: Record<string, string>;

  beforeAll(() => {
    repo = buildHostileGit();
    outsideBefore = treeDigest(repo.outside);
  });

  it("workbench index (the CLI) indexes the history and runs nothing", async () => {
    const run = await within(90_000, "workbench index", () => runWorkbench(["index", repo.root, "--json"], { env: { ...process.env } }));
    expect(repo.fired()).toEqual([]);
    expect(run.stderr).not.toContain(repo.secret);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ commits: 4, branches: 2 });
  }, 120_000);

  it("the server's index job indexes the history, the commit page reads it, nothing ran", async () => {
    const project = await addProject({ path: repo.root });
    const job = await within(60_000, "index job", async () => {
      const started = await startIndexJob(project.id, { full: true });
      await waitForJob(project.id);
      return getJob(started.id);
    });
    expect(repo.fired()).toEqual([]);
    expect(job.status).toBe("succeeded");
    const commits = await storedCommits(project.id);
    expect(commits.map((c) => c.subject)).toEqual(repo.subjects);
    expect((await getCommit(project.id, commits[0]!.hash)).message).toBe("feat: signed with ssh");
    expect(await everythingStored(project.id)).not.toContain(repo.secret);
  }, 90_000);

  it("a remote: added by file:// URL and by path, indexed, fetched after a push; nothing ran", async () => {
    const viaUrl = await within(30_000, "clone file://", () => addProject({ url: `file://${repo.bare}` }));
    const viaPath = await within(30_000, "clone path", () => addProject({ url: repo.bare }));
    expect(repo.fired()).toEqual([]);
    for (const p of [viaUrl, viaPath]) expect(fs.existsSync(path.join(p.rootPath, ".claude/work/GIT-1/state.json"))).toBe(true);

    repo.pushCommit("feat: pushed later", "docs/later.md", "# Later\n");
    const fetched = await within(60_000, "fetch", async () => {
      const f = await fetchProject(viaUrl.id);
      await waitForJob(viaUrl.id);
      return f;
    });
    expect(repo.fired()).toEqual([]);
    expect(fetched.changed).toBe(true);
    expect(fs.readFileSync(path.join(viaUrl.rootPath, "docs/later.md"), "utf8")).toBe("# Later\n");
    expect((await storedCommits(viaUrl.id)).map((c) => c.subject)).toEqual(["feat: pushed later", ...repo.subjects]);
    expect(await everythingStored(viaUrl.id)).not.toContain(repo.secret);

    const cli = await within(90_000, "workbench index --url", () => runWorkbench(["index", "--url", repo.bare, "--json"], { env: { ...process.env } }));
    expect(repo.fired()).toEqual([]);
    expect(cli.code).toBe(0);
  }, 180_000);

  it("nothing outside the project was written (core.worktree names a folder there)", () => {
    expect(repo.fired()).toEqual([]);
    expect(fs.existsSync(path.join(repo.outside, "worktree"))).toBe(false);
    expect(treeDigest(repo.outside)).toEqual(outsideBefore);
  });
});
