/**
 * A clone killed mid-way (kill -9 of the server or CLI) leaves its temporary folder in the data
 * directory's remotes/; the next clone removes the folders of clones whose process is gone, and
 * leaves a running clone's alone.
 */
import fs from "node:fs";
import path from "node:path";
import { simpleGit } from "simple-git";
import { afterAll, expect, it } from "vitest";
import { checkoutDirFor, cloneRemote, remotesRoot } from "../../lib/projects/remote";
import { ProjectBuilder, removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

const ENV = { GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "Test", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "Test", GIT_COMMITTER_EMAIL: "t@example.com" };
const git = (dir: string) => simpleGit({ baseDir: dir, allowEnvironment: Object.keys(ENV) }).env({ PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...ENV });
/** A process id no process has (beyond Linux's pid_max). */
const DEAD = 4_194_400;

it("a clone removes the temporary folders dead clones left, not a running one's", async () => {
  const work = new ProjectBuilder().workState("LEFT-1", { type: "epic", status: "in_progress" });
  await git(work.root).raw(["init", "-q", "-b", "main"]);
  await git(work.root).raw(["add", "-A"]);
  await git(work.root).raw(["commit", "-q", "-m", "first"]);
  fs.mkdirSync(remotesRoot(), { recursive: true });
  const dead = path.join(remotesRoot(), `.clone-${DEAD}-abc123`);
  const running = path.join(remotesRoot(), `.clone-${process.ppid}-def456`);
  for (const d of [dead, running]) {
    fs.mkdirSync(path.join(d, ".git"), { recursive: true });
    fs.writeFileSync(path.join(d, "half-written.md"), "half");
  }
  const dest = checkoutDirFor(work.root, "main");
  const { head } = await cloneRemote(work.root, "main", dest);
  expect(head).toMatch(/^[0-9a-f]{40}$/);
  expect(fs.existsSync(path.join(dest, ".claude/work/LEFT-1/state.json"))).toBe(true);
  expect(fs.existsSync(dead)).toBe(false);
  expect(fs.existsSync(path.join(running, "half-written.md"))).toBe(true);
  expect(fs.readdirSync(remotesRoot()).filter((n) => n.startsWith(".clone-"))).toEqual([path.basename(running)]);
  fs.rmSync(running, { recursive: true, force: true });
});
