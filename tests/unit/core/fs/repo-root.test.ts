import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { confinementRootSync } from "../../../../lib/core/fs/repo-root";
import { makeTempDir, removeTempDirs } from "../../../helpers/project-builder";

afterAll(removeTempDirs);

describe("confinementRootSync", () => {
  it("is the nearest ancestor holding .git, found from the folder's real path", () => {
    const base = fs.realpathSync(makeTempDir("wb-root-"));
    const repo = path.join(base, "repo");
    fs.mkdirSync(path.join(repo, ".git"), { recursive: true });
    fs.mkdirSync(path.join(repo, "specs", "a"), { recursive: true });
    expect(confinementRootSync(path.join(repo, "specs", "a"))).toEqual({ root: repo, real: path.join(repo, "specs", "a") });
    // Reached through a link from elsewhere: the repository of the real folder, not of the link.
    fs.mkdirSync(path.join(base, "other", ".git"), { recursive: true });
    fs.symlinkSync(path.join(repo, "specs", "a"), path.join(base, "other", "a"));
    expect(confinementRootSync(path.join(base, "other", "a")).root).toBe(repo);
    // A worktree's .git is a file.
    fs.mkdirSync(path.join(base, "wt", "specs"), { recursive: true });
    fs.writeFileSync(path.join(base, "wt", ".git"), "gitdir: elsewhere\n");
    expect(confinementRootSync(path.join(base, "wt", "specs")).root).toBe(path.join(base, "wt"));
  });

  it("is the folder itself outside any repository, and a missing folder there is NOT_FOUND", () => {
    const base = fs.realpathSync(makeTempDir("wb-root-"));
    fs.mkdirSync(path.join(base, "spec"));
    expect(confinementRootSync(path.join(base, "spec"))).toEqual({ root: path.join(base, "spec"), real: path.join(base, "spec") });
    expect(() => confinementRootSync(path.join(base, "missing"))).toThrow(/No folder/);
    fs.writeFileSync(path.join(base, "file"), "x");
    expect(() => confinementRootSync(path.join(base, "file"))).toThrow(/not a folder/);
  });

  it("places a folder that does not exist yet inside its repository", () => {
    const base = fs.realpathSync(makeTempDir("wb-root-"));
    fs.mkdirSync(path.join(base, ".git"));
    expect(confinementRootSync(path.join(base, "specs", "new"))).toEqual({ root: base, real: path.join(base, "specs", "new") });
  });
});
