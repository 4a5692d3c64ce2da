import { execFileSync } from "node:child_process";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitFingerprint, isGitRepo, readBranches, readCommits } from "../../lib/core/git";
import { makeTempDir, removeTempDirs } from "../helpers/project-builder";
import { buildSampleRepo } from "../helpers/sample-project";

afterAll(removeTempDirs);

describe("git reading (lib/core/git) on the sample repository", () => {
  let root: string;
  let hashes: Record<string, string>;
  beforeAll(async () => {
    const s = await buildSampleRepo();
    root = s.targetDir;
    hashes = s.commits;
  });

  it("isGitRepo tells a repository from a plain folder", async () => {
    expect(await isGitRepo(root)).toBe(true);
    expect(await isGitRepo(makeTempDir("wb-nogit-"))).toBe(false);
  });

  it("readBranches: newest first, with the last five commits of each", async () => {
    const branches = await readBranches(root);
    expect(branches.map((b) => b.name)).toEqual(["feature/JIRA-123", "main", "refactor/api-refactor", "feature/user-auth"]);
    const jira = branches[0]!;
    expect(jira.lastCommitDate.startsWith("2026-02-09T14:10:00")).toBe(true);
    expect(jira.recent).toHaveLength(5);
    expect(jira.recent.map((r) => r.shortHash)).toEqual([hashes["JIRA-123-3"], hashes["JIRA-123-2"], hashes["JIRA-123-1"], hashes["main-1"], hashes["init"]]);
    expect(jira.recent[0]!.subject).toBe("[JIRA-123] fix(export): neutralise spreadsheet formulas in CSV cells");
  });

  it("readCommits: git log --all newest first, full message kept", async () => {
    const commits = await readCommits(root);
    expect(commits).toHaveLength(9);
    expect(commits[0]!.shortHash).toBe(hashes["JIRA-123-3"]);
    expect(commits.at(-1)!.subject).toBe("chore: initial import of Acme Orders service");
    expect(commits.every((c) => /^[0-9a-f]{40}$/.test(c.hash) && c.hash.startsWith(c.shortHash))).toBe(true);
    expect(await readCommits(root, 3)).toHaveLength(3);
  });

  it("the fingerprint is stable and changes when a ref moves", async () => {
    const a = await gitFingerprint(root);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(await gitFingerprint(root)).toBe(a);
    execFileSync("git", ["branch", "feature/new-thing"], { cwd: root, env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: os.devNull }, stdio: "pipe" });
    expect(await gitFingerprint(root)).not.toBe(a);
    expect((await readBranches(root)).map((b) => b.name)).toContain("feature/new-thing");
    const b = await gitFingerprint(root);
    // HEAD moving alone (a detached checkout of an older commit) changes it too.
    execFileSync("git", ["checkout", "-q", "--detach", hashes["init"]!], { cwd: root, env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: os.devNull }, stdio: "pipe" });
    expect(await gitFingerprint(root)).not.toBe(b);
  });

  it("the fingerprint tells a plain folder (undefined) from an empty repository (a value)", async () => {
    expect(await gitFingerprint(makeTempDir("wb-nogit-"))).toBeUndefined();
    const empty = makeTempDir("wb-emptygit-");
    execFileSync("git", ["init", "-q", empty], { env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: os.devNull }, stdio: "pipe" });
    expect(await gitFingerprint(empty)).toMatch(/^[0-9a-f]{64}$/);
  });
});
