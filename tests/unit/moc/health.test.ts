import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { READ_CAPS } from "../../../lib/core/fs/limits";
import { ProjectFs } from "../../../lib/core/project-fs";
import { analyzeKb, type MocNode } from "../../../lib/moc/health";
import { contentReads, KbBuilder, type KbSectionSpec } from "../../helpers/kb-builder";
import { removeTempDirs } from "../../helpers/project-builder";

afterAll(removeTempDirs);

const SAMPLE = path.resolve(import.meta.dirname, "..", "..", "..", "examples", "sample-project");
const BRAIN_ROOT = "/work/shared/fixtures/central-brain";

const health = async (root: string, docsDir = "docs") => analyzeKb(await ProjectFs.open(root), docsDir);

function flatten(n: MocNode): MocNode[] {
  return [n, ...n.children.flatMap(flatten)];
}

/** s1/…/s5, each with one file. */
function chain(levels: number): KbSectionSpec {
  let spec: KbSectionSpec | undefined;
  for (let i = levels; i >= 1; i--) {
    spec = { name: `s${i}`, hook: `webhook layer ${i}`, files: [{ name: `f${i}.md`, hook: `webhook notes ${i}` }], sections: spec ? [spec] : [] };
  }
  return spec!;
}

function messyKb(): KbBuilder {
  const big = ["# big/", "", "> Oversize index.", "", "## Content", "- [b.md](./b.md) — b", ...Array.from({ length: 600 }, (_, i) => `Line ${i}.`)].join("\n");
  return new KbBuilder()
    .tree({
      sections: [
        {
          name: "a",
          hook: "a",
          files: [
            { name: "ok.md", hook: "fine" },
            { name: "missing.md", hook: "gone", content: null },
          ],
        },
        { name: "broken", hook: "no index", index: null },
        { name: "placeholder", hook: "empty", index: "# placeholder/\n\n> Later.\n\n## Content\n- _(empty)_\n" },
        { name: "big", hook: "oversize", index: big },
        chain(5),
      ],
      extra: "## Outside\n- [secret](../secret.md) — escapes",
    })
    .file("big/b.md", "# B\n")
    .file("orphan.md", "# Orphan\n")
    .file("a/unlinked.md", "# Unlinked\n")
    .file("rogue/_index.md", "# rogue/\n\n## Content\n- [r.md](./r.md) — r\n")
    .file("rogue/r.md", "# R\n")
    .file("a/notes.txt", "not markdown")
    .projectFile("secret.md", "# Secret\n");
}

describe("analyzeKb on a generated KB", () => {
  it("reports broken links, with the index they are in", async () => {
    const h = await health(messyKb().root);
    expect(h.initialized).toBe(true);
    expect(h.brokenLinks).toEqual(
      expect.arrayContaining([
        { from: "docs/_index.md", target: "./broken/", path: "docs/broken/_index.md" },
        { from: "docs/a/_index.md", target: "./missing.md", path: "docs/a/missing.md" },
      ]),
    );
    expect(h.brokenLinks).toHaveLength(2);
  });

  it("reports oversize indexes with their line count", async () => {
    const h = await health(messyKb().root);
    expect(h.oversizeIndexes).toEqual([{ path: "docs/big/_index.md", lines: 606 }]);
  });

  it("reports placeholder-only sections", async () => {
    const h = await health(messyKb().root);
    expect(h.placeholderSections).toEqual(["docs/placeholder/_index.md"]);
  });

  it("reports .md files no index links to, including a whole unlinked folder", async () => {
    const h = await health(messyKb().root);
    expect([...h.unreachableFiles].sort()).toEqual(["docs/a/unlinked.md", "docs/orphan.md", "docs/rogue/_index.md", "docs/rogue/r.md"]);
  });

  it("reports content deeper than depth 3", async () => {
    const h = await health(messyKb().root);
    expect([...h.tooDeep].sort()).toEqual(["docs/s1/s2/s3/s4/_index.md", "docs/s1/s2/s3/s4/f4.md", "docs/s1/s2/s3/s4/s5/_index.md", "docs/s1/s2/s3/s4/s5/f5.md"]);
    const nodes = flatten(h.tree!);
    const byPath = new Map(nodes.map((n) => [n.path, n]));
    expect(byPath.get("docs/s1/s2/s3/_index.md")).toMatchObject({ depth: 3, reachable: true });
    expect(byPath.get("docs/s1/s2/s3/f3.md")).toMatchObject({ reachable: true });
    expect(byPath.get("docs/s1/s2/s3/s4/_index.md")).toMatchObject({ depth: 4, reachable: false });
    expect(byPath.get("docs/s1/s2/s3/s4/f4.md")).toMatchObject({ reachable: false });
  });

  it("reports links escaping docs/ and does not follow them", async () => {
    const h = await health(messyKb().root);
    expect(h.escapingLinks).toEqual([{ from: "docs/_index.md", target: "../secret.md" }]);
    expect(flatten(h.tree!).some((n) => n.path.includes("secret"))).toBe(false);
  });

  it("builds the MOC tree: root, sections, files, missing marked", async () => {
    const h = await health(messyKb().root);
    const root = h.tree!;
    expect(root).toMatchObject({ path: "docs/_index.md", kind: "section", depth: 0, reachable: true, missing: false });
    expect(root.children.map((c) => c.path)).toEqual(["docs/a/_index.md", "docs/broken/_index.md", "docs/placeholder/_index.md", "docs/big/_index.md", "docs/s1/_index.md"]);
    expect(root.children[1]).toMatchObject({ missing: true, reachable: false });
    const a = root.children[0]!;
    expect(a.children.map((c) => [c.path, c.kind, c.missing])).toEqual([
      ["docs/a/ok.md", "file", false],
      ["docs/a/missing.md", "file", true],
    ]);
    // Sections: root, a, placeholder, big, s1..s5.
    expect(h.sections).toBe(9);
    // Existing linked files: a/ok.md, big/b.md, f1..f5.
    expect(h.files).toBe(7);
  });

  it("agrees with the loader: what the loader reads is reachable, what is too deep is never read", async () => {
    const kb = messyKb();
    const h = await health(kb.root);
    const r = await kb.pack("Investigate webhook notes in every layer");
    const reachable = new Set(
      flatten(h.tree!)
        .filter((n) => n.reachable && !n.missing)
        .map((n) => n.path),
    );
    for (const read of r.kb.stats.reads) expect(reachable).toContain(`docs/${read}`);
    for (const deep of h.tooDeep) expect(r.kb.stats.reads).not.toContain(deep.replace(/^docs\//, ""));
    for (const u of h.unreachableFiles) expect(r.kb.stats.reads).not.toContain(u.replace(/^docs\//, ""));
    expect(contentReads(r.kb).sort()).toEqual(["s1/f1.md", "s1/s2/f2.md", "s1/s2/s3/f3.md"]);
  });

  it("an index of exactly 500 newline-terminated lines is not oversize", async () => {
    const lines = ["# ok/", "", "> Exactly at the limit.", "", "## Content", "- [x.md](./x.md) — x"];
    while (lines.length < 500) lines.push("");
    const kb = new KbBuilder().tree({ sections: [{ name: "ok", hook: "ok", index: lines.join("\n") + "\n" }] }).file("ok/x.md", "# X\n");
    const h = await health(kb.root);
    expect(h.oversizeIndexes).toEqual([]);
  });

  it("no docs/_index.md: not initialized, no tree", async () => {
    const kb = new KbBuilder().file("orphan.md", "# Orphan\n");
    const h = await health(kb.root);
    expect(h).toMatchObject({ initialized: false, tree: null, sections: 0, files: 0, brokenLinks: [], unreachableFiles: [] });
  });

  it("a linked file over the markdown cap is named as not read (from its size alone) and marked in the tree", async () => {
    const kb = new KbBuilder().tree({
      sections: [],
      files: [
        { name: "huge.md", hook: "huge" },
        { name: "ok.md", hook: "fine" },
      ],
    });
    fs.truncateSync(kb.abs("huge.md"), READ_CAPS.markdown + 1);
    const h = await health(kb.root);
    expect(h.refused).toEqual([{ path: "docs/huge.md", message: `docs/huge.md is over the ${READ_CAPS.markdown}-byte limit; the loader does not read it.` }]);
    const nodes = flatten(h.tree!);
    expect(nodes.find((n) => n.path === "docs/huge.md")).toMatchObject({ missing: false, problem: `is over the ${READ_CAPS.markdown}-byte limit` });
    expect(nodes.find((n) => n.path === "docs/ok.md")?.problem).toBeUndefined();
    expect(h.brokenLinks).toEqual([]);
  });

  it("a clean KB has nothing to report", async () => {
    const kb = new KbBuilder().tree({ sections: [{ name: "a", hook: "a", files: [{ name: "x.md", hook: "x" }] }], files: [{ name: "top.md", hook: "t" }] });
    const h = await health(kb.root);
    expect(h).toMatchObject({ initialized: true, sections: 2, files: 2, brokenLinks: [], escapingLinks: [], oversizeIndexes: [], placeholderSections: [], unreachableFiles: [], tooDeep: [] });
  });
});

describe("analyzeKb on the real fixtures", () => {
  it("examples/sample-project/docs: the broken data-model.md link and the placeholder onboarding section", async () => {
    const h = await health(SAMPLE);
    expect(h.initialized).toBe(true);
    expect(h.brokenLinks).toEqual([{ from: "docs/architecture/_index.md", target: "./data-model.md", path: "docs/architecture/data-model.md" }]);
    expect(h.placeholderSections).toEqual(["docs/onboarding/_index.md"]);
    expect(h.unreachableFiles).toEqual([]);
    expect(h.tooDeep).toEqual([]);
    expect(h.escapingLinks).toEqual([]);
    expect(h.oversizeIndexes).toEqual([]);
    expect(h.sections).toBe(5);
    expect(h.files).toBe(7);
    const dataModel = flatten(h.tree!).find((n) => n.path === "docs/architecture/data-model.md")!;
    expect(dataModel).toMatchObject({ kind: "file", missing: true });
  });

  it("central-brain (docsDir brain): missing buckets are broken links; the client docs index is a placeholder", async () => {
    const h = await health(BRAIN_ROOT, "brain");
    expect(h.initialized).toBe(true);
    const broken = h.brokenLinks.map((b) => b.path).sort();
    expect(broken).toEqual(
      [
        "brain/AGENTS.md",
        "brain/CLAUDE.md",
        "brain/START-HERE.md",
        "brain/agents/_index.md",
        "brain/ideas/_index.md",
        "brain/personal/_index.md",
        "brain/tools/models.md",
        "brain/tools/stack/_index.md",
        "brain/work/example-client/agents/_index.md",
        "brain/work/example-client/credentials.md",
        "brain/workspaces/_index.md",
      ].sort(),
    );
    expect(h.placeholderSections).toEqual(["brain/work/example-client/docs/_index.md"]);
    expect(h.unreachableFiles).toEqual([]);
    expect(h.tooDeep).toEqual([]);
  });
});
