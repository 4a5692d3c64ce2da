import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseIndex } from "../../../lib/moc/parse-index";
import { renderIndex } from "../../helpers/kb-builder";

const BRAIN = "/work/shared/fixtures/central-brain/brain";
const SAMPLE_DOCS = path.resolve(import.meta.dirname, "..", "..", "..", "examples", "sample-project", "docs");

const TEMPLATE = `# architecture/ — how it is built

> Components, data stores and the path a request takes.
> Read before changing anything that crosses module boundaries.

**Path:** docs/architecture/
**Last updated:** 2026-01-30

## Sections
- [storage/](./storage/) — databases and caches
- [api/](./api/_index.md) — the HTTP layer

## Content
- [overview.md](./overview.md) — components, data stores, deployment and
  who owns what.
- [lifecycle.md](./lifecycle.md "Lifecycle") — what happens to a request
* [errors.md](errors.md#codes) – error codes
- [[glossary]] — terms
- [[runbooks/]] — wiki section link
- [[adr/0002-sessions|Sessions ADR]] — aliased wiki link
- [site](https://example.com/docs.md) — external, ignored
- [diagram](./diagram.png) — not markdown, ignored
- plain item without a link
- [sibling](../runbooks/restart.md) — a sibling section's file, still inside docs
- [secret](../../secret.md) — escapes docs
- [deeper secret](./storage/../../../etc/passwd.md) — escapes too

## Suggested (not yet created)
- [queues.md](./queues.md) — not yet written
- \`exports.md\` — later
`;

describe("parseIndex", () => {
  const p = parseIndex(TEMPLATE, "architecture/_index.md");

  it("reads the title and the (multi-line) description blockquote", () => {
    expect(p.title).toBe("architecture/ — how it is built");
    expect(p.description).toBe("Components, data stores and the path a request takes. Read before changing anything that crosses module boundaries.");
  });

  it("resolves section links (folder and explicit _index.md) to <dir>/_index.md relative to docs", () => {
    const sections = p.links.filter((l) => l.kind === "section");
    expect(sections.map((l) => [l.text, l.target, l.resolved, l.hook, l.group])).toEqual([
      ["storage/", "./storage/", "architecture/storage/_index.md", "databases and caches", "Sections"],
      ["api/", "./api/_index.md", "architecture/api/_index.md", "the HTTP layer", "Sections"],
      ["runbooks/", "runbooks/", "architecture/runbooks/_index.md", "wiki section link", "Content"],
    ]);
  });

  it("resolves file links, joins continuation-line hooks, and strips titles and anchors", () => {
    const files = p.links.filter((l) => l.kind === "file");
    expect(files.map((l) => [l.text, l.resolved, l.hook])).toEqual([
      ["overview.md", "architecture/overview.md", "components, data stores, deployment and who owns what."],
      ["lifecycle.md", "architecture/lifecycle.md", "what happens to a request"],
      ["errors.md", "architecture/errors.md", "error codes"],
      ["glossary", "architecture/glossary.md", "terms"],
      ["Sessions ADR", "architecture/adr/0002-sessions.md", "aliased wiki link"],
      ["sibling", "runbooks/restart.md", "a sibling section's file, still inside docs"],
    ]);
    expect(files.every((l) => l.group === "Content")).toBe(true);
  });

  it("records the 1-based line of each item (the first line of a continued item)", () => {
    const lines = TEMPLATE.split("\n");
    for (const l of [...p.links, ...p.escaping]) {
      expect(lines[l.line - 1]).toContain(l.target.replace(/\.md$/, ""));
    }
    const overview = p.links.find((l) => l.text === "overview.md")!;
    expect(lines[overview.line - 1]).toMatch(/^- \[overview\.md\]/);
  });

  it("ignores external URLs, non-markdown targets, plain items and the Suggested group", () => {
    const all = [...p.links, ...p.escaping].map((l) => l.target);
    expect(all).not.toContain("https://example.com/docs.md");
    expect(all).not.toContain("./diagram.png");
    expect(all).not.toContain("./queues.md");
    expect(p.links).toHaveLength(9);
  });

  it("puts links that escape docs/ in `escaping` with resolved null, never in links", () => {
    expect(p.escaping.map((l) => [l.target, l.resolved])).toEqual([
      ["../../secret.md", null],
      ["./storage/../../../etc/passwd.md", null],
    ]);
    expect(p.links.every((l) => l.resolved !== null && !l.resolved.startsWith(".."))).toBe(true);
  });

  it("a link from the root index to ../ escapes; an absolute target escapes", () => {
    const root = parseIndex("# root\n\n## Content\n- [up](../outside.md) — x\n- [abs](/etc/notes.md) — y\n- [ok](./a/../b.md) — z\n", "_index.md");
    expect(root.escaping.map((l) => l.target)).toEqual(["../outside.md", "/etc/notes.md"]);
    expect(root.links.map((l) => l.resolved)).toEqual(["b.md"]);
  });

  it("keeps the first 30 lines as the head and counts lines", () => {
    const text = Array.from({ length: 45 }, (_, i) => `line ${i + 1}`).join("\n");
    const q = parseIndex(`# t\n${text}`, "x/_index.md");
    expect(q.head.split("\n")).toHaveLength(30);
    expect(q.head).toContain("line 29");
    expect(q.head).not.toContain("line 30");
    expect(q.lineCount).toBe(46);
  });

  it("counts lines like wc -l: a 500-line file ending in a newline has 500 lines", () => {
    const text = Array.from({ length: 500 }, (_, i) => (i === 0 ? "# big" : `line ${i + 1}`)).join("\n") + "\n";
    expect(parseIndex(text, "big/_index.md").lineCount).toBe(500);
  });

  it("groups come from the nearest ## heading, including themed headings", () => {
    const q = parseIndex("# learnings/\n\n## 🧠 Brain / workflow\n- [a.md](./a.md) — a\n\n## 🚀 Deploy / infra\n- [b.md](./b.md) — b\n- _(empty)_\n", "knowledge/learnings/_index.md");
    expect(q.links.map((l) => [l.resolved, l.group])).toEqual([
      ["knowledge/learnings/a.md", "🧠 Brain / workflow"],
      ["knowledge/learnings/b.md", "🚀 Deploy / infra"],
    ]);
    expect(q.placeholderOnly).toBe(false);
  });

  it("renderIndex output parses back to its own sections and files", () => {
    const text = renderIndex({
      title: "api/",
      description: "The HTTP layer.",
      path: "docs/api/",
      sections: [{ name: "auth", hook: "sessions and tokens" }],
      files: [{ name: "routes.md", hook: "every route" }],
    });
    const q = parseIndex(text, "api/_index.md");
    expect(q.title).toBe("api/");
    expect(q.description).toBe("The HTTP layer.");
    expect(q.links.map((l) => [l.kind, l.resolved, l.hook])).toEqual([
      ["section", "api/auth/_index.md", "sessions and tokens"],
      ["file", "api/routes.md", "every route"],
    ]);
  });
});

describe("parseIndex placeholderOnly", () => {
  it.each([
    ["_(empty)_", "# onboarding/\n\n> First week.\n\n**Path:** docs/onboarding/\n\n## Content\n- _(empty)_\n"],
    ["TODO comment", "# onboarding/\n\n<!-- TODO: write this section -->\n\n## Content\n\n## Sections\n"],
    ["{{VAR}}", "# {{NAME}}\n\n> {{DESCRIPTION}}\n\n**Path:** {{PATH}}\n\n## Content\n"],
    ["title only", "# empty/\n"],
  ])("%s with no links is placeholder-only", (_label, text) => {
    expect(parseIndex(text, "s/_index.md").placeholderOnly).toBe(true);
  });

  it("an index with a real link is not placeholder-only even with placeholders elsewhere", () => {
    expect(parseIndex("# s/\n<!-- TODO: more -->\n## Content\n- [a.md](./a.md) — a\n- _(empty)_\n", "s/_index.md").placeholderOnly).toBe(false);
  });

  it("an index with real prose and no links is not placeholder-only", () => {
    expect(parseIndex("# s/\n\n> Real description.\n\nThis section explains the deploy pipeline.\nIt has three stages.\n", "s/_index.md").placeholderOnly).toBe(false);
  });

  it("links listed only under Suggested leave the index placeholder-only", () => {
    expect(parseIndex("# s/\n\n## Content\n- _(empty)_\n\n## Suggested (not yet created)\n- [a.md](./a.md) — later\n", "s/_index.md").placeholderOnly).toBe(true);
  });
});

describe("parseIndex on the real fixtures", () => {
  it("central-brain root: the seven mother buckets with joined hooks, and the root files", () => {
    const p = parseIndex(fs.readFileSync(path.join(BRAIN, "_index.md"), "utf8"), "_index.md");
    expect(p.title).toBe("🧠 {{NAME}}'s Brain — root index");
    expect(p.description).toBe("This is {{NAME}}'s single source of truth. Everything they decide, learn, research or discuss lives here, tidy. **Nothing left loose.**");
    const sections = p.links.filter((l) => l.kind === "section");
    expect(sections.map((l) => l.resolved)).toEqual(["knowledge/_index.md", "work/_index.md", "personal/_index.md", "ideas/_index.md", "tools/_index.md", "agents/_index.md", "workspaces/_index.md"]);
    expect(sections[0]!.hook).toBe("the **manual + guide map**: a summary of the whole brain + routes to where the detail lives. Distilled methods and learnings.");
    expect(p.links.filter((l) => l.kind === "file").map((l) => l.resolved)).toEqual(["START-HERE.md", "CONVENTIONS.md", "CLAUDE.md", "AGENTS.md"]);
    expect(p.placeholderOnly).toBe(false);
  });

  it("central-brain methods: the Suggested item is ignored", () => {
    const p = parseIndex(fs.readFileSync(path.join(BRAIN, "knowledge/methods/_index.md"), "utf8"), "knowledge/methods/_index.md");
    expect(p.links.map((l) => l.resolved)).toEqual(["knowledge/methods/example-method.md"]);
  });

  it("central-brain client docs index is placeholder-only", () => {
    const p = parseIndex(fs.readFileSync(path.join(BRAIN, "work/example-client/docs/_index.md"), "utf8"), "work/example-client/docs/_index.md");
    expect(p.links).toEqual([]);
    expect(p.placeholderOnly).toBe(true);
  });

  it("sample-project onboarding index is placeholder-only; architecture lists three files and no Suggested item", () => {
    const onboarding = parseIndex(fs.readFileSync(path.join(SAMPLE_DOCS, "onboarding/_index.md"), "utf8"), "onboarding/_index.md");
    expect(onboarding.placeholderOnly).toBe(true);
    const arch = parseIndex(fs.readFileSync(path.join(SAMPLE_DOCS, "architecture/_index.md"), "utf8"), "architecture/_index.md");
    expect(arch.links.map((l) => l.resolved)).toEqual(["architecture/overview.md", "architecture/request-lifecycle.md", "architecture/data-model.md"]);
    expect(arch.links[2]!.hook).toBe("tables, tenancy columns and the invariants between orders, order lines and invoices.");
  });
});
