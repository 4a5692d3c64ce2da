import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkbenchError } from "../../../lib/core/errors";
import { MAX_FILE_BYTES, ProjectFs, toRel } from "../../../lib/core/project-fs";
import { ProjectBuilder, makeTempDir, removeTempDirs } from "../../helpers/project-builder";

afterAll(removeTempDirs);

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof WorkbenchError) return e.code;
    throw e;
  }
  return "resolved";
}

function syncCodeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof WorkbenchError) return e.code;
    throw e;
  }
  return "returned";
}

describe("ProjectFs", () => {
  let b: ProjectBuilder;
  let outside: string;
  let pfs: ProjectFs;

  beforeAll(async () => {
    outside = makeTempDir("wb-outside-");
    fs.writeFileSync(path.join(outside, "secret.txt"), "TOP SECRET");
    fs.mkdirSync(path.join(outside, "dir"));
    fs.writeFileSync(path.join(outside, "dir", "inner.md"), "# outside");
    b = new ProjectBuilder()
      .file("a.txt", "hello")
      .file("docs/readme.md", "# Readme")
      .file("docs/résumé.md", "# Résumé\nunicode name")
      .file("docs/日本語.md", "# 日本語")
      .file("big.txt", "x".repeat(100))
      .symlink("docs/escape.txt", path.join(outside, "secret.txt"))
      .symlink("docs/escape-dir", path.join(outside, "dir"))
      .symlink("docs/inside-link.md", "readme.md");
    pfs = await ProjectFs.open(b.root);
  });

  it("opens a folder at its real path and refuses a missing folder or a file", async () => {
    expect(pfs.root).toBe(fs.realpathSync(b.root));
    expect(await codeOf(ProjectFs.open(path.join(b.root, "nope")))).toBe("NOT_FOUND");
    expect(await codeOf(ProjectFs.open(b.abs("a.txt")))).toBe("INVALID_INPUT");
  });

  it("resolves paths inside the root", () => {
    expect(pfs.resolve("docs/readme.md")).toBe(path.join(pfs.root, "docs", "readme.md"));
    expect(pfs.resolve("docs/../a.txt")).toBe(path.join(pfs.root, "a.txt"));
    expect(pfs.resolve(".")).toBe(pfs.root);
  });

  it.each([
    ["..", "the parent"],
    ["../x", "a sibling"],
    ["docs/../../x", "a climb out through a subfolder"],
    ["/etc/passwd", "an absolute path"],
    ["a.txt\0.md", "a NUL byte"],
  ])("resolve rejects %j (%s) with UNSAFE_PATH", (rel) => {
    expect(syncCodeOf(() => pfs.resolve(rel))).toBe("UNSAFE_PATH");
    expect(pfs.isInside(rel)).toBe(rel.includes("\0"));
  });

  it("a prefix-sharing sibling folder is not inside (root-foo is not root)", () => {
    expect(pfs.isInside(`../${path.basename(pfs.root)}-foo/x`)).toBe(false);
  });

  it("readText rejects escaping paths with UNSAFE_PATH, not as a missing file", async () => {
    const paths = ["../x", "docs/../../etc/passwd", "/etc/passwd", "a.txt\0.md"];
    const codes: Record<string, string> = {};
    for (const rel of paths) codes[rel] = await codeOf(pfs.readText(rel));
    expect(codes).toEqual(Object.fromEntries(paths.map((p) => [p, "UNSAFE_PATH"])));
  });

  it("never reads or lists outside the root through an escaping path", async () => {
    expect(await pfs.isFile("../" + path.basename(outside) + "/secret.txt")).toBe(false);
    expect(await pfs.stat("/etc/passwd")).toBeNull();
    expect(await pfs.list("..")).toEqual([]);
    expect(await pfs.walk("..")).toEqual([]);
  });

  it("leaves out symlinks that point outside the root when listing", async () => {
    const names = (await pfs.list("docs")).map((e) => e.name);
    expect(names).not.toContain("escape.txt");
    expect(names).not.toContain("escape-dir");
    expect(names).toContain("inside-link.md");
    expect(names).toContain("readme.md");
  });

  it("does not read a file through a symlink that points outside the root", async () => {
    expect(await codeOf(pfs.readText("docs/escape.txt"))).not.toBe("resolved");
    expect(await pfs.isFile("docs/escape.txt")).toBe(false);
    expect(await pfs.isDir("docs/escape-dir")).toBe(false);
    expect(await pfs.stat("docs/escape.txt")).toBeNull();
    expect(await codeOf(pfs.readText("docs/escape-dir/inner.md"))).not.toBe("resolved");
    expect(await pfs.list("docs/escape-dir")).toEqual([]);
  });

  it("walk never descends through an escaping link", async () => {
    const rels = (await pfs.walk(".")).map((f) => f.relPath);
    expect(rels.some((r) => r.includes("escape"))).toBe(false);
    expect(rels.some((r) => r.includes("inner.md"))).toBe(false);
    expect(rels).toContain("docs/readme.md");
  });

  it("follows a symlink that stays inside the root", async () => {
    expect(await pfs.readText("docs/inside-link.md")).toBe("# Readme");
  });

  it("refuses a file over the limit with TOO_LARGE and reads one at the limit", async () => {
    expect(await codeOf(pfs.readText("big.txt", 99))).toBe("TOO_LARGE");
    expect(await pfs.readText("big.txt", 100)).toHaveLength(100);
    expect(MAX_FILE_BYTES).toBe(2 * 1024 * 1024);
  });

  it("the TOO_LARGE message names the file and both sizes", async () => {
    await expect(pfs.readText("big.txt", 10)).rejects.toThrow(/big\.txt: 100 bytes is over the 10-byte limit/);
  });

  it("a missing file is NOT_FOUND", async () => {
    expect(await codeOf(pfs.readText("docs/missing.md"))).toBe("NOT_FOUND");
    expect(await pfs.isFile("docs/missing.md")).toBe(false);
  });

  it("handles unicode file names in list, walk and readText", async () => {
    const names = (await pfs.list("docs")).map((e) => e.name);
    expect(names).toContain("résumé.md");
    expect(names).toContain("日本語.md");
    const rels = (await pfs.walk("docs")).map((f) => f.relPath);
    expect(rels).toContain("docs/résumé.md");
    expect(rels).toContain("docs/日本語.md");
    expect(await pfs.readText("docs/日本語.md")).toBe("# 日本語");
    expect(await pfs.readText("docs/résumé.md")).toContain("unicode name");
  });

  it("list is sorted and marks folders; walk gives sorted forward-slash paths with size", async () => {
    const top = await pfs.list(".");
    expect(top.map((e) => e.name)).toEqual([...top.map((e) => e.name)].sort());
    expect(top.find((e) => e.name === "docs")?.isDir).toBe(true);
    expect(top.find((e) => e.name === "a.txt")?.isDir).toBe(false);
    const all = await pfs.walk(".");
    expect(all.map((f) => f.relPath)).toEqual([...all.map((f) => f.relPath)].sort());
    expect(all.find((f) => f.relPath === "a.txt")?.size).toBe(5);
    expect(all.every((f) => !f.relPath.includes("\\"))).toBe(true);
  });

  it("walk skips .git and node_modules and honours maxDepth", async () => {
    const p = new ProjectBuilder().file(".git/HEAD", "x").file("node_modules/m/index.js", "x").file("a/b/c/d.md", "x").file("a/top.md", "x");
    const fsx = await ProjectFs.open(p.root);
    const rels = (await fsx.walk(".")).map((f) => f.relPath);
    expect(rels).toEqual(["a/b/c/d.md", "a/top.md"]);
    expect((await fsx.walk(".", { maxDepth: 1 })).map((f) => f.relPath)).toEqual(["a/top.md"]);
  });

  it("toRel gives forward-slash relative paths", () => {
    expect(toRel("/r", "/r/a/b.md")).toBe("a/b.md");
  });
});
