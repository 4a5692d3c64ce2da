/**
 * The git runner: what it refuses before git starts, the shadow git folder it reads a
 * repository through (layouts git itself accepts: sha256 objects, linked worktrees, a folder
 * below the repository's top), and the deadline that stops a git that waits forever.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { gitFingerprint, isGitRepo, readBranches, readCommits } from "../../../lib/core/git";
import { GitError, UnreadableRepository, findRepository, gitArgv, openRepository, runGit, withRepository } from "../../../lib/core/git-runner";
import { makeTempDir, removeTempDirs } from "../../helpers/project-builder";

afterAll(removeTempDirs);

const ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: os.devNull,
  GIT_AUTHOR_NAME: "T",
  GIT_AUTHOR_EMAIL: "t@example.invalid",
  GIT_COMMITTER_NAME: "T",
  GIT_COMMITTER_EMAIL: "t@example.invalid",
};
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: ENV, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

function repoWithCommit(extraInit: string[] = []): string {
  const dir = makeTempDir("wb-runner-");
  git(dir, "init", "-q", "-b", "main", ...extraInit);
  fs.writeFileSync(path.join(dir, "a.md"), "# A\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "first");
  return dir;
}

describe("git runner", () => {
  it("refuses subcommands and options outside its list before git starts", async () => {
    expect(() => gitArgv(["archive" as "log"])).toThrow(GitError);
    for (const bad of ["--upload-pack=/bin/sh", "-c", "--output=/tmp/x", "--ext-diff", "--textconv", "--show-signature", "--template=/tmp/t", "--exec=/bin/sh", "--config=core.pager=x"]) {
      expect(() => gitArgv(["log", bad]), bad).toThrow(/never passed to git/);
    }
    await expect(runGit(["clone", "--upload-pack=touch /tmp/x", "file:///nope", "/tmp/nope"])).rejects.toThrow(/never passed/);
    // The empty template (no hooks copied) is the one --template allowed.
    expect(gitArgv(["clone", "--template=", "--", "a", "b"])).toContain("--template=");
  });

  it("fixes every command-running setting on the command line, ahead of the subcommand", () => {
    const argv = gitArgv(["log", "-1"]);
    const settings = argv.flatMap((a, i) => (argv[i - 1] === "-c" ? [a] : []));
    for (const s of [
      "core.fsmonitor=false",
      "core.hooksPath=/dev/null",
      "log.showSignature=false",
      "gpg.program=/dev/null/no-program",
      "gpg.ssh.program=/dev/null/no-program",
      "protocol.ext.allow=never",
      "credential.helper=",
      "core.sshCommand=/dev/null/no-program",
    ])
      expect(settings).toContain(s);
    expect(argv.indexOf("log")).toBe(argv.length - 2);
    // The network part of clone and fetch keeps the operator's credential helpers.
    expect(gitArgv(["fetch"], true).some((a) => a.startsWith("credential.helper"))).toBe(false);
  });

  it("stops a git that waits forever at its deadline, with everything it started", async () => {
    const dir = repoWithCommit();
    // A branch that is a named pipe: git opens it and waits for a writer that never comes.
    execFileSync("mkfifo", [path.join(dir, ".git/refs/heads/stuck")]);
    const loc = findRepository(dir)!;
    const started = Date.now();
    const err = await withRepository(loc, (repo) => repo.run(["show-ref"], { timeoutMs: 2500 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitError);
    expect((err as GitError).timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
    // Killed: no show-ref as old as the deadline is left.
    const stuck = execFileSync("ps", ["-eo", "etimes=,args="], { encoding: "utf8" })
      .split("\n")
      .map((l) => /^\s*(\d+) (.*)$/.exec(l))
      .filter((m) => m && Number(m[1]) >= 2 && m[2]!.startsWith("git ") && m[2]!.includes("show-ref"));
    expect(stuck).toEqual([]);
  });

  it("refuses a repository whose HEAD or packed-refs is not a regular file, at once", async () => {
    const pipeHead = repoWithCommit();
    fs.rmSync(path.join(pipeHead, ".git/HEAD"));
    execFileSync("mkfifo", [path.join(pipeHead, ".git/HEAD")]);
    // git would not take it for a repository either (HEAD is not a file).
    expect(findRepository(pipeHead)).toBeNull();

    const pipeRefs = repoWithCommit();
    execFileSync("mkfifo", [path.join(pipeRefs, ".git/packed-refs")]);
    await expect(openRepository(findRepository(pipeRefs)!)).rejects.toThrow(UnreadableRepository);
    expect(await gitFingerprint(pipeRefs)).toBeNull();
  });

  it("reads a repository whose config is a named pipe: the config is never opened", async () => {
    const dir = repoWithCommit();
    fs.rmSync(path.join(dir, ".git/config"));
    execFileSync("mkfifo", [path.join(dir, ".git/config")]);
    expect((await readCommits(dir)).map((c) => c.subject)).toEqual(["first"]);
  });

  it("reads sha256 repositories (the object format is the one setting carried over)", async () => {
    const dir = repoWithCommit(["--object-format=sha256"]);
    const [c] = await readCommits(dir);
    expect(c!.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await gitFingerprint(dir)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("reads a linked worktree (its own HEAD, the shared refs) and a folder below the top", async () => {
    const main = repoWithCommit();
    git(main, "branch", "side");
    const wt = path.join(makeTempDir("wb-runner-wt-"), "wt");
    git(main, "worktree", "add", "-q", wt, "side");
    fs.writeFileSync(path.join(wt, "b.md"), "# B\n");
    git(wt, "add", "-A");
    git(wt, "commit", "-q", "-m", "on side");
    expect(await isGitRepo(wt)).toBe(true);
    const loc = findRepository(wt)!;
    expect(loc.commonDir).toBe(fs.realpathSync(path.join(main, ".git")));
    expect(await withRepository(loc, (r) => r.run(["rev-parse", "--abbrev-ref", "HEAD"]))).toBe("side\n");
    expect((await readBranches(wt)).map((b) => b.name).sort()).toEqual(["main", "side"]);

    fs.mkdirSync(path.join(main, "docs/deep"), { recursive: true });
    expect(findRepository(path.join(main, "docs/deep"))?.gitDir).toBe(fs.realpathSync(path.join(main, ".git")));
    expect(await isGitRepo(makeTempDir("wb-runner-plain-"))).toBe(false);
  });

  it("removes its shadow git folder after use, and after a failure", async () => {
    const loc = findRepository(repoWithCommit())!;
    let shadow = "";
    await withRepository(loc, async (repo) => {
      shadow = repo.gitDir;
      expect(fs.readFileSync(path.join(shadow, "config"), "utf8")).toContain("bare = true");
      return repo.run(["log", "-1", "--format=%s"]);
    });
    expect(shadow).not.toBe("");
    expect(fs.existsSync(shadow)).toBe(false);
    await expect(
      withRepository(loc, (repo) => {
        shadow = repo.gitDir;
        return repo.run(["rev-parse", "--verify", "-q", "no-such-branch"]);
      }),
    ).rejects.toThrow(GitError);
    expect(fs.existsSync(shadow)).toBe(false);
  });
});
