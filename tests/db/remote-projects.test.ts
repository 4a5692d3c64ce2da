import fs from "node:fs";
import path from "node:path";
import { simpleGit } from "simple-git";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client";
import { getJob } from "../../lib/db/repositories/jobs";
import { getProject, listProjects } from "../../lib/db/repositories/projects";
import { startIndexJob, waitForJob } from "../../lib/indexer/jobs";
import { addProject } from "../../lib/projects/add-project";
import { startFetchScheduler } from "../../lib/projects/fetch-scheduler";
import { remotesRoot, removeCheckout } from "../../lib/projects/remote";
import { fetchProject, removeRemoteCheckout } from "../../lib/projects/remote-projects";
import { topicTable } from "../helpers/db";
import { runWorkbench } from "../helpers/run-cli";
import { ProjectBuilder, makeTempDir, removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

const ENV = { GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "Test", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "Test", GIT_COMMITTER_EMAIL: "t@example.com" };
const git = (dir: string) => simpleGit({ baseDir: dir, allowEnvironment: Object.keys(ENV) }).env({ PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...ENV });

/** A bare repository (the "remote") and a working clone that pushes to it. */
async function makeRemote(): Promise<{ bare: string; work: ProjectBuilder; push: (message: string) => Promise<void> }> {
  const bare = path.join(makeTempDir("wb-bare-"), "origin.git");
  await git(path.dirname(bare)).raw(["init", "--bare", "-q", "-b", "main", bare]);
  const work = new ProjectBuilder();
  await git(work.root).raw(["init", "-q", "-b", "main"]);
  await git(work.root).raw(["remote", "add", "origin", bare]);
  const push = async (message: string) => {
    await git(work.root).raw(["add", "-A"]);
    await git(work.root).raw(["commit", "-q", "-m", message]);
    await git(work.root).raw(["push", "-q", "origin", "main"]);
  };
  return { bare, work, push };
}

async function projectCount(): Promise<number> {
  return (await getDb()).project.count();
}

describe("projects from git remotes", () => {
  let remote: Awaited<ReturnType<typeof makeRemote>>;
  let projectId: string;

  beforeAll(async () => {
    remote = await makeRemote();
    remote.work.workState("REM-1", { type: "epic", status: "in_progress", title: "First" });
    await remote.push("first topic");
  });

  it("adds a project by URL: clones into the data directory and indexes it", async () => {
    const project = await addProject({ url: `file://${remote.bare}`, name: "Remote one" });
    projectId = project.id;
    expect(project.rootPath.startsWith(remotesRoot() + path.sep)).toBe(true);
    expect(project.remote).toMatchObject({ url: `file://${remote.bare}`, branch: "main", lastFetchError: null });
    expect(fs.existsSync(path.join(project.rootPath, ".claude/work/REM-1/state.json"))).toBe(true);
    await startIndexJob(project.id);
    await waitForJob(project.id);
    expect((await topicTable(project.id)).map((t) => [t.slug, t.status])).toEqual([["REM-1", "in_progress"]]);
    // The same remote again is the same project, not a second clone.
    expect((await addProject({ url: `file://${remote.bare}` })).id).toBe(project.id);
  });

  it("fetch on demand: unchanged remote starts nothing; a pushed commit is indexed incrementally", async () => {
    const [idle, same] = await Promise.all([fetchProject(projectId), fetchProject(projectId)]);
    expect(idle).toMatchObject({ changed: false, job: null });
    // Concurrent fetches of one checkout share one git run.
    expect(same).toBe(idle);

    remote.work.workState("REM-1", { type: "epic", status: "completed", title: "First, done now" });
    remote.work.workState("REM-2", { type: "implementation", status: "in_progress", title: "Second" });
    await remote.push("second topic");
    const moved = await fetchProject(projectId);
    expect(moved.changed).toBe(true);
    expect(moved.job).not.toBeNull();
    await waitForJob(projectId);
    const job = await getJob(moved.job!.id);
    expect(job.status).toBe("succeeded");
    expect(job.stats.filesChanged).toBe(2);
    expect((await topicTable(projectId)).map((t) => [t.slug, t.status])).toEqual([
      ["REM-1", "completed"],
      ["REM-2", "in_progress"],
    ]);
    const project = await getProject(projectId);
    expect(project.remote?.lastFetchedAt).not.toBeNull();
    expect(project.remote?.lastFetchError).toBeNull();

    // A lost checkout is cloned again on the next fetch.
    fs.rmSync(project.rootPath, { recursive: true, force: true });
    const again = await fetchProject(projectId);
    expect(again).toMatchObject({ changed: true, head: moved.head });
    await waitForJob(projectId);
    expect((await topicTable(projectId)).map((t) => t.slug)).toEqual(["REM-1", "REM-2"]);
  });

  it("a fetch that moved HEAD but never indexed it (killed in between) is indexed by the next fetch", async () => {
    remote.work.workState("REM-0", { type: "implementation", status: "in_progress", title: "Pushed, fetched, not indexed" });
    await remote.push("a topic fetched but not indexed");
    // The checkout moves and nothing indexes it, as when the process dies right after the reset.
    const moved = await fetchProject(projectId, { startJob: false });
    expect(moved).toMatchObject({ changed: true, job: null });
    const next = await fetchProject(projectId);
    expect(next.head).toBe(moved.head);
    expect(next.job).not.toBeNull();
    await waitForJob(projectId);
    expect((await topicTable(projectId)).map((t) => t.slug)).toEqual(["REM-0", "REM-1", "REM-2"]);
    // Indexed now: the next fetch starts nothing.
    expect(await fetchProject(projectId)).toMatchObject({ changed: false, job: null });
  });

  it("a branch other than the default is tracked when given", async () => {
    await git(remote.work.root).raw(["checkout", "-q", "-b", "release/1"]);
    remote.work.workState("REL-1", { type: "epic", status: "in_progress" });
    await git(remote.work.root).raw(["add", "-A"]);
    await git(remote.work.root).raw(["commit", "-q", "-m", "release"]);
    await git(remote.work.root).raw(["push", "-q", "origin", "release/1"]);
    await git(remote.work.root).raw(["checkout", "-q", "main"]);
    const p = await addProject({ url: remote.bare, branch: "release/1" });
    expect(p.id).not.toBe(projectId);
    expect(p.remote?.branch).toBe("release/1");
    expect(fs.existsSync(path.join(p.rootPath, ".claude/work/REL-1/state.json"))).toBe(true);
  });

  it("bad URLs, credentials and missing remotes give clear errors and store nothing", async () => {
    const before = await projectCount();
    // Other test files of this worker may have left checkouts here: compare with what was there.
    const checkouts = fs.existsSync(remotesRoot()) ? fs.readdirSync(remotesRoot()).sort() : [];
    await expect(addProject({ url: "ftp://example.com/repo.git" })).rejects.toThrow(/ftp/);
    await expect(addProject({ url: "https://user:secret@example.com/repo.git" })).rejects.toThrow(/credentials/);
    await expect(addProject({ url: "https://ghp_token@example.com/repo.git" })).rejects.toThrow(/credentials/);
    await expect(addProject({ url: remote.bare, branch: "../../etc" })).rejects.toThrow(/branch/);
    await expect(addProject({ url: path.join(makeTempDir(), "missing.git") })).rejects.toMatchObject({ code: "UNREADABLE", message: expect.stringMatching(/Could not clone .*missing\.git/) });
    await expect(addProject({ url: remote.bare, branch: "no-such-branch" })).rejects.toMatchObject({ code: "UNREADABLE" });
    // ssh runs in batch mode: an unreachable host fails at once instead of prompting.
    await expect(addProject({ url: "ssh://git@127.0.0.1:1/x.git" })).rejects.toMatchObject({ code: "UNREADABLE", message: expect.stringMatching(/Could not clone/) });
    expect(await projectCount()).toBe(before);
    // Failed clones leave no folder behind.
    const names = fs.readdirSync(remotesRoot());
    expect(names.filter((n) => n.startsWith(".clone-"))).toEqual([]);
    expect(names.sort()).toEqual(checkouts);
  });

  it("a folder project has nothing to fetch", async () => {
    const plain = await addProject({ path: makeTempDir() });
    await expect(fetchProject(plain.id)).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });

  it("the scheduler fetches every remote project and records errors without throwing", async () => {
    const broken = await makeRemote();
    broken.work.workState("GONE-1", { type: "epic", status: "in_progress" });
    await broken.push("soon gone");
    const doomed = await addProject({ url: broken.bare });
    fs.rmSync(broken.bare, { recursive: true, force: true });

    remote.work.workState("REM-3", { type: "epic", status: "in_progress" });
    await remote.push("third topic");

    const logs: string[] = [];
    const timers: (() => void)[] = [];
    const scheduler = startFetchScheduler({ intervalMs: 1000, setTimer: (fn) => timers.push(fn), clearTimer: () => undefined, log: (m) => logs.push(m) });
    expect(timers).toHaveLength(1);
    const outcomes = await scheduler.runOnce();
    await waitForJob(projectId);
    const remotes = (await listProjects()).filter((p) => p.remote);
    expect(outcomes.map((o) => o.projectId).sort()).toEqual(remotes.map((p) => p.id).sort());
    expect(outcomes.find((o) => o.projectId === projectId)).toMatchObject({ changed: true });
    expect(outcomes.find((o) => o.projectId === doomed.id)?.error).toMatch(/Could not fetch main/);
    expect(logs.some((l) => l.includes(doomed.id))).toBe(true);
    expect((await getProject(doomed.id)).remote?.lastFetchError).toMatch(/Could not fetch main/);
    expect((await topicTable(projectId)).map((t) => t.slug)).toContain("REM-3");
    await scheduler.stop();

    // Removing a remote project removes our checkout, and only that.
    removeRemoteCheckout(await getProject(doomed.id));
    expect(fs.existsSync(doomed.rootPath)).toBe(false);
    expect(fs.existsSync(path.join(remotesRoot(), path.basename((await getProject(projectId)).rootPath)))).toBe(true);
    expect(() => removeCheckout(makeTempDir())).toThrow(/data directory/);
  });

  it("workbench index --url clones a new remote and indexes it, and fetches it when known", async () => {
    const other = await makeRemote();
    other.work.workState("CLI-1", { type: "epic", status: "in_progress" });
    await other.push("first");
    const env = { ...process.env };
    const first = await runWorkbench(["index", "--url", `file://${other.bare}`, "--json"], { env });
    expect(first.stderr).toMatch(/indexed \d+ files? /);
    const { projectId: id } = JSON.parse(first.stdout) as { projectId: string };
    expect((await topicTable(id)).map((t) => t.slug)).toEqual(["CLI-1"]);

    other.work.workState("CLI-2", { type: "epic", status: "in_progress" });
    await other.push("second");
    const again = await runWorkbench(["index", "--url", `file://${other.bare}`, "--json"], { env });
    expect(JSON.parse(again.stdout)).toMatchObject({ projectId: id });
    expect((await topicTable(id)).map((t) => t.slug)).toEqual(["CLI-1", "CLI-2"]);
    expect((await getProject(id)).remote?.lastFetchError).toBeNull();

    const both = await runWorkbench(["index", "some/folder", "--url", `file://${other.bare}`], { env });
    expect(both.code).toBe(1);
    expect(both.stderr).toBe("ERROR: Give a project folder or --url <git-url> (one of them).\n");
  });
});
