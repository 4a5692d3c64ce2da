import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ProjectFs } from "../../../../lib/core/project-fs";
import { type Seen, observe, parseFreshness, RACY_MS, stillFresh, takeFreshness } from "../../../../lib/core/fs/freshness";
import { makeTempDir, removeTempDirs } from "../../../helpers/project-builder";

afterAll(removeTempDirs);

/** A job that started after the files were written and the clock moved on: no time is racy. */
const later = () => Date.now() + RACY_MS + 1_000;

function project(): string {
  const root = fs.realpathSync(makeTempDir("wb-fresh-"));
  fs.mkdirSync(path.join(root, "work/JIRA-1"), { recursive: true });
  fs.mkdirSync(path.join(root, "work/empty"), { recursive: true });
  fs.writeFileSync(path.join(root, "work/JIRA-1/state.md"), "status: open\n");
  fs.writeFileSync(path.join(root, "config.yml"), "a: 1\n");
  return root;
}

/** What an index job looks at: a walk of work/, a read and a probe of a missing file. */
function looked(root: string): Map<string, Seen> {
  const pfs = ProjectFs.openSync(root);
  const seen = pfs.observe();
  pfs.walkSync("work");
  pfs.readTextSync("config.yml");
  pfs.isFileSync("settings.yml");
  return seen;
}

function recorded(root: string) {
  const r = takeFreshness(root, looked(root), later(), { topics: 1 }, {});
  if (!r) throw new Error("no record");
  return r;
}

describe("freshness records", () => {
  it("hold every folder a walk listed, every file it returned, every read and every probe", () => {
    const root = project();
    const r = recorded(root);
    const kinds = Object.fromEntries(r.entries.map((e) => [e[0], e[1]]));
    expect(kinds).toMatchObject({ work: "d", "work/JIRA-1": "d", "work/empty": "d", "work/JIRA-1/state.md": "f", "config.yml": "f", "settings.yml": "m", ".git": "m" });
    expect(stillFresh(root, r, {})).toBe(true);
    expect(parseFreshness(JSON.stringify(r))).toEqual(r);
  });

  it("keep what a walk saw of a file when it listed it, which is what a look now says", () => {
    const root = project();
    const seen = looked(root);
    const listed = seen.get("work/JIRA-1/state.md")!;
    expect(["work/JIRA-1/state.md", "f", listed.size, listed.ctimeMs, listed.mtimeMs, listed.ino]).toEqual(observe(root, "work/JIRA-1/state.md"));
    expect(seen.get("config.yml")).toBeUndefined();
  });

  it("see a rewrite of the same size with the old modification time put back", () => {
    const root = project();
    const file = path.join(root, "work/JIRA-1/state.md");
    const r = recorded(root);
    const { atime, mtime } = fs.statSync(file);
    fs.writeFileSync(file, "status: shut\n");
    fs.utimesSync(file, atime, mtime);
    expect(stillFresh(root, r, {})).toBe(false);
  });

  it("see a file added to an empty folder, a file removed, and a probed file appearing", () => {
    for (const change of [
      (root: string) => fs.writeFileSync(path.join(root, "work/empty/new.md"), "x"),
      (root: string) => fs.rmSync(path.join(root, "work/JIRA-1/state.md")),
      (root: string) => fs.writeFileSync(path.join(root, "settings.yml"), "b: 2\n"),
    ]) {
      const root = project();
      const r = recorded(root);
      change(root);
      expect(stillFresh(root, r, {})).toBe(false);
    }
  });

  it("follow a link inside the project to its target, and never look past a link out of it", () => {
    const root = project();
    const outside = makeTempDir("wb-fresh-out-");
    fs.writeFileSync(path.join(outside, "secret.md"), "s");
    fs.symlinkSync(path.join(root, "config.yml"), path.join(root, "work/JIRA-1/alias.yml"));
    fs.symlinkSync(path.join(outside, "secret.md"), path.join(root, "work/JIRA-1/out.md"));
    const pfs = ProjectFs.openSync(root);
    const seen = pfs.observe();
    pfs.walkSync("work");
    seen.set("work/JIRA-1/out.md", undefined);
    const r = takeFreshness(root, seen, later(), null, {})!;
    expect(r.entries.find((e) => e[0] === "work/JIRA-1/out.md")).toEqual(["work/JIRA-1/out.md", "o", 0, 0, 0, 0]);
    fs.writeFileSync(path.join(outside, "secret.md"), "changed outside");
    expect(stillFresh(root, r, {})).toBe(true);
    fs.appendFileSync(path.join(root, "config.yml"), "c: 3\n");
    expect(stillFresh(root, r, {})).toBe(false);
  });

  it("are not kept when a time is within the racy window of the job's start", () => {
    const root = project();
    expect(takeFreshness(root, looked(root), Date.now(), null, {})).toBeNull();
  });

  it("follow git's refs: a commit makes the record stale", () => {
    const root = project();
    const git = (...a: string[]) => execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...a], { cwd: root, stdio: "ignore" });
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-qm", "one");
    const r = recorded(root);
    expect(r.git).toEqual({ kind: "repo" });
    expect(r.entries.some((e) => e[0] === ".git/refs/heads/main")).toBe(true);
    expect(stillFresh(root, r, {})).toBe(true);
    git("commit", "-q", "--allow-empty", "-m", "two");
    expect(stillFresh(root, r, {})).toBe(false);
  });

  it("give up where git's refs are out of reach: a .git file, a repository above, GIT_DIR", () => {
    const worktree = project();
    fs.writeFileSync(path.join(worktree, ".git"), "gitdir: /elsewhere\n");
    expect(takeFreshness(worktree, looked(worktree), later(), null, {})).toBeNull();

    const outer = fs.realpathSync(makeTempDir("wb-fresh-outer-"));
    fs.mkdirSync(path.join(outer, ".git"));
    const inner = path.join(outer, "inner");
    fs.mkdirSync(inner);
    expect(takeFreshness(inner, new Map(), later(), null, {})).toBeNull();

    const plain = project();
    expect(takeFreshness(plain, looked(plain), later(), null, { GIT_DIR: "/x" })).toBeNull();
    const r = recorded(plain);
    expect(stillFresh(plain, r, { GIT_DIR: "/x" })).toBe(false);
  });

  it("refuse a record of another version or shape", () => {
    expect(parseFreshness("{")).toBeNull();
    expect(parseFreshness(JSON.stringify({ version: 0, takenAt: 1, entries: [], git: { kind: "repo" } }))).toBeNull();
    expect(parseFreshness(JSON.stringify({ version: 1, takenAt: 1, entries: {}, git: { kind: "repo" } }))).toBeNull();
  });
});
