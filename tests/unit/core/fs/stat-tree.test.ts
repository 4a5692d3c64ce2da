import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { statTreeSync } from "../../../../lib/core/fs/stat-tree";
import { ProjectFs } from "../../../../lib/core/project-fs";
import { makeTempDir, removeTempDirs } from "../../../helpers/project-builder";

afterAll(removeTempDirs);

describe("statTreeSync", () => {
  it("lists folders and files with their inode and times, following links inside the root only", () => {
    const root = makeTempDir("wb-tree-");
    const outside = makeTempDir("wb-tree-out-");
    fs.mkdirSync(path.join(root, "p", "seats", "iter-001"), { recursive: true });
    fs.writeFileSync(path.join(root, "p", "seats", "iter-001", "a.json"), "[]");
    fs.mkdirSync(path.join(root, "shared"));
    fs.writeFileSync(path.join(root, "shared", "b.json"), "[1]");
    fs.symlinkSync(path.join(root, "shared"), path.join(root, "p", "linked"));
    fs.writeFileSync(path.join(outside, "secret.json"), "[2]");
    fs.symlinkSync(path.join(outside, "secret.json"), path.join(root, "p", "out.json"));
    fs.symlinkSync(outside, path.join(root, "p", "outdir"));
    fs.symlinkSync(".", path.join(root, "p", "self"));
    const pfs = ProjectFs.openSync(root);
    const tree = statTreeSync(pfs, "p", 6);
    expect(tree.map((e) => `${e.relPath}${e.dir ? "/" : ""}`)).toEqual(["linked/", "linked/b.json", "seats/", "seats/iter-001/", "seats/iter-001/a.json"]);
    const a = tree.find((e) => e.relPath === "seats/iter-001/a.json")!;
    const st = fs.statSync(path.join(root, "p", "seats", "iter-001", "a.json"));
    expect(a).toMatchObject({ size: 2, ino: st.ino, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs });
    expect(pfs.skipped.map((w) => `${w.relPath}:${w.code}`).sort()).toEqual(["p/out.json:outside_root", "p/outdir:outside_root", "p/self:symlink_loop"]);
  });

  it("stops at the depth given and is empty for a missing folder", () => {
    const root = makeTempDir("wb-tree-");
    fs.mkdirSync(path.join(root, "a", "b", "c"), { recursive: true });
    fs.writeFileSync(path.join(root, "a", "b", "c", "f"), "x");
    const pfs = ProjectFs.openSync(root);
    expect(statTreeSync(pfs, "a", 1).map((e) => e.relPath)).toEqual(["b", "b/c"]);
    expect(statTreeSync(pfs, "missing", 6)).toEqual([]);
  });
});
