import { describe, expect, it } from "vitest";
import { diffFiles, listingDigest, scopeFor } from "../../../lib/indexer/plan-changes";
import type { AreaFile, ArtifactRoot } from "../../../lib/inventory/scan";

const f = (relPath: string, size = 10, mtimeMs = 1000): AreaFile => ({ relPath, size, mtimeMs, area: "artifact" });

describe("diffFiles", () => {
  it("new files and files whose size or mtime changed are changed; vanished ones are removed", () => {
    const previous = new Map([
      ["same.md", { size: 10, mtimeMs: 1000 }],
      ["grew.md", { size: 10, mtimeMs: 1000 }],
      ["touched.md", { size: 10, mtimeMs: 1000 }],
      ["gone.md", { size: 10, mtimeMs: 1000 }],
    ]);
    const { changed, removed } = diffFiles([f("same.md"), f("grew.md", 11), f("touched.md", 10, 2000), f("new.md")], previous);
    expect(changed.map((x) => x.relPath)).toEqual(["grew.md", "touched.md", "new.md"]);
    expect(removed).toEqual(["gone.md"]);
  });

  it("nothing changed: both lists empty", () => {
    const files = [f("a.md"), f("b.md", 3, 1.5)];
    expect(diffFiles(files, new Map(files.map((x) => [x.relPath, { size: x.size, mtimeMs: x.mtimeMs }])))).toEqual({ changed: [], removed: [] });
  });

  it("first index: every file is changed", () => {
    expect(diffFiles([f("a.md"), f("b.md")], new Map()).changed).toHaveLength(2);
  });
});

describe("scopeFor", () => {
  const roots: ArtifactRoot[] = [
    { source: "work", dir: ".claude/work" },
    { source: "brainstorm", dir: ".claude/brainstorm" },
    { source: "proposal", dir: ".claude/proposals" },
    { source: "refactoring", dir: ".claude/work/refactoring-sessions" },
  ];
  const plain = (s: ReturnType<typeof scopeFor>) => Object.fromEntries([...s].map(([k, v]) => [k, v === "all" ? "all" : [...v].sort()]));

  it("a file inside an entry rescans that entry only", () => {
    expect(plain(scopeFor([".claude/work/JIRA-123/state.json", ".claude/work/JIRA-123/context/notes.md", ".claude/work/PROJ-42/state.json"], roots))).toEqual({
      work: ["JIRA-123", "PROJ-42"],
    });
  });

  it("a manifest change rescans its whole source, and stays 'all' whatever follows", () => {
    expect(plain(scopeFor([".claude/brainstorm/a/state.json", ".claude/brainstorm/manifest.json", ".claude/brainstorm/b/state.json"], roots))).toEqual({ brainstorm: "all" });
  });

  it("the nested refactoring folder belongs to refactoring, not work", () => {
    expect(plain(scopeFor([".claude/work/refactoring-sessions/api-refactor/state.json"], roots))).toEqual({ refactoring: ["api-refactor"] });
    expect(plain(scopeFor([".claude/work/refactoring-sessions/manifest.json"], roots))).toEqual({ refactoring: "all" });
    expect(plain(scopeFor([".claude/work/manifest.json"], roots))).toEqual({ work: "all" });
  });

  it("a single-file proposal is scoped by its slug", () => {
    expect(plain(scopeFor([".claude/proposals/rate-limits.md"], roots))).toEqual({ proposal: ["rate-limits"] });
  });

  it("files outside the artifact roots do not touch any source", () => {
    expect(scopeFor(["knowledge/product/billing.md", "src/a.ts"], roots).size).toBe(0);
  });

  it("a root at the project root ('.') has its manifest at manifest.json", () => {
    const dotRoots: ArtifactRoot[] = [{ source: "proposal", dir: "." }];
    expect(plain(scopeFor(["manifest.json"], dotRoots))).toEqual({ proposal: "all" });
    expect(plain(scopeFor(["p1.md", "p2/x.md"], dotRoots))).toEqual({ proposal: ["p1", "p2"] });
  });
});

describe("listingDigest", () => {
  const base = [f("a.md"), f("b/c.json", 20, 3000)];
  it("is the same for the same listing", () => {
    expect(listingDigest(base)).toBe(listingDigest([f("a.md"), f("b/c.json", 20, 3000)]));
  });
  it("changes with any path, size, mtime or area, and with a file added or gone", () => {
    const seen = new Set([
      listingDigest(base),
      listingDigest([f("a.md"), f("b/d.json", 20, 3000)]),
      listingDigest([f("a.md"), f("b/c.json", 21, 3000)]),
      listingDigest([f("a.md"), f("b/c.json", 20, 3001)]),
      listingDigest([f("a.md"), { ...f("b/c.json", 20, 3000), area: "product" }]),
      listingDigest([...base, f("e.md")]),
      listingDigest([f("a.md")]),
    ]);
    expect(seen.size).toBe(7);
  });
  it("cannot be fooled by moving a separator between fields", () => {
    expect(listingDigest([f("a", 12, 3)])).not.toBe(listingDigest([f("a1", 2, 3)]));
  });
});
