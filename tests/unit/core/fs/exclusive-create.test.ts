import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createExclusiveSync, linkNoReplaceSync, moveFileSync, publishNewFileSync, removeFileSync } from "../../../../lib/core/fs/exclusive-create";
import { makeTempDir, removeTempDirs } from "../../../helpers/project-builder";

afterAll(removeTempDirs);
afterEach(() => vi.restoreAllMocks());

describe("createExclusiveSync", () => {
  it("creates a new file, and refuses a taken name without touching it", () => {
    const dir = makeTempDir("wb-excl-");
    const p = path.join(dir, "lock");
    expect(createExclusiveSync(p, "first\n")).toBe(true);
    expect(createExclusiveSync(p, "second\n")).toBe(false);
    expect(fs.readFileSync(p, "utf8")).toBe("first\n");
  });

  it("never writes through a link at the name (dangling or not)", () => {
    const dir = makeTempDir("wb-excl-");
    const outside = makeTempDir("wb-excl-out-");
    const target = path.join(outside, "secret.txt");
    fs.writeFileSync(target, "secret");
    fs.symlinkSync(target, path.join(dir, "lock"));
    fs.symlinkSync(path.join(outside, "not-yet.txt"), path.join(dir, "dangling"));
    expect(createExclusiveSync(path.join(dir, "lock"), "mine")).toBe(false);
    expect(createExclusiveSync(path.join(dir, "dangling"), "mine")).toBe(false);
    expect(fs.readFileSync(target, "utf8")).toBe("secret");
    expect(fs.existsSync(path.join(outside, "not-yet.txt"))).toBe(false);
  });
});

describe("linkNoReplaceSync", () => {
  it("links to a free name and says when the name is taken", () => {
    const dir = makeTempDir("wb-excl-");
    const a = path.join(dir, "a");
    fs.writeFileSync(a, "a");
    fs.writeFileSync(path.join(dir, "b"), "b");
    expect(linkNoReplaceSync(a, path.join(dir, "c"))).toBe("linked");
    expect(linkNoReplaceSync(a, path.join(dir, "b"))).toBe("exists");
    expect(fs.readFileSync(path.join(dir, "b"), "utf8")).toBe("b");
    vi.spyOn(fs, "linkSync").mockImplementation(() => {
      throw Object.assign(new Error("no links"), { code: "EPERM" });
    });
    expect(linkNoReplaceSync(a, path.join(dir, "d"))).toBe("unsupported");
  });
});

describe("publishNewFileSync", () => {
  it("takes the first free name, whole, and leaves no temp file", () => {
    const dir = makeTempDir("wb-publish-");
    fs.writeFileSync(path.join(dir, "n1"), "theirs");
    expect(publishNewFileSync(dir, "mine", ["n1", "n2", "n3"])).toBe("n2");
    expect(fs.readFileSync(path.join(dir, "n1"), "utf8")).toBe("theirs");
    expect(fs.readFileSync(path.join(dir, "n2"), "utf8")).toBe("mine");
    expect(fs.readdirSync(dir).sort()).toEqual(["n1", "n2"]);
    expect(fs.statSync(path.join(dir, "n2")).nlink).toBe(1);
  });

  it("gives null when every name is taken", () => {
    const dir = makeTempDir("wb-publish-");
    fs.writeFileSync(path.join(dir, "n1"), "theirs");
    expect(publishNewFileSync(dir, "mine", ["n1"])).toBeNull();
    expect(fs.readdirSync(dir)).toEqual(["n1"]);
  });

  it("creates the file exclusively where hard links are not supported", () => {
    const dir = makeTempDir("wb-publish-");
    fs.writeFileSync(path.join(dir, "n1"), "theirs");
    vi.spyOn(fs, "linkSync").mockImplementation(() => {
      throw Object.assign(new Error("no links"), { code: "ENOTSUP" });
    });
    expect(publishNewFileSync(dir, "mine", ["n1", "n2"])).toBe("n2");
    expect(fs.readFileSync(path.join(dir, "n1"), "utf8")).toBe("theirs");
    expect(fs.readFileSync(path.join(dir, "n2"), "utf8")).toBe("mine");
    expect(fs.readdirSync(dir).sort()).toEqual(["n1", "n2"]);
  });
});

describe("moveFileSync and removeFileSync", () => {
  it("move a file aside, and say when it was already gone", () => {
    const dir = makeTempDir("wb-move-");
    fs.writeFileSync(path.join(dir, "lock"), "x");
    expect(moveFileSync(path.join(dir, "lock"), path.join(dir, "aside"))).toBe(true);
    expect(moveFileSync(path.join(dir, "lock"), path.join(dir, "aside2"))).toBe(false);
    removeFileSync(path.join(dir, "aside"));
    removeFileSync(path.join(dir, "aside"));
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
