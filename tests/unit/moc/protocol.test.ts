import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ProjectFs } from "../../../lib/core/project-fs";
import { countTokens } from "../../../lib/core/tokens";
import { projectKbSource, type KbSource } from "../../../lib/moc/kb-source";
import { parseIndex } from "../../../lib/moc/parse-index";
import { buildPack } from "../../../lib/moc/walk";
import { contentReads, excerptPaths, KbBuilder, listedPaths, packFor, packSection, type KbSectionSpec } from "../../helpers/kb-builder";
import { copySampleProject, listTree, removeTempDirs } from "../../helpers/project-builder";

afterAll(removeTempDirs);

const SAMPLE = path.resolve(import.meta.dirname, "..", "..", "..", "examples", "sample-project");

describe("the sample project (examples/sample-project/docs)", () => {
  it("the broken data-model.md link is noted and its siblings are read", async () => {
    const r = await packFor(SAMPLE, "Explain the request lifecycle and the data model invariants");
    expect(packSection(r.pack, "Notes")).toContain("- Broken link in docs/architecture/_index.md: `./data-model.md` (docs/architecture/data-model.md is missing); siblings still walked.");
    expect(listedPaths(r.pack, "Relevant sections walked")).toContain("docs/architecture/_index.md");
    expect(excerptPaths(r.pack)).toContain("docs/architecture/request-lifecycle.md");
    expect(r.kb.stats.reads).not.toContain("architecture/data-model.md");
    expect(r.walk.freshKb).toBe(false);
  });

  it("one placeholder-only section of four does not make it a fresh KB", async () => {
    const r = await packFor(SAMPLE, "How do we revoke a user's sessions after a stolen laptop?");
    expect(r.walk.freshKb).toBe(false);
    expect(r.pack).not.toContain("KB initialized but mostly empty");
    expect(excerptPaths(r.pack)[0]).toBe("docs/runbooks/session-revocation.md");
    expect(r.pack).toContain("revokeAllForUser");
  });

  it("excerpts are verbatim lines of the files they name", async () => {
    const r = await packFor(SAMPLE, "How do we revoke a user's sessions after a stolen laptop?");
    const lines = r.pack.split("\n");
    let file: string[] | null = null;
    for (const l of lines.slice(lines.indexOf("## Files with excerpts") + 1, lines.indexOf("## Files noted but not read"))) {
      const h = /^### `docs\/(.+)`$/.exec(l);
      if (h) {
        file = fs.readFileSync(path.join(SAMPLE, "docs", h[1]!), "utf8").split(/\r?\n/);
        continue;
      }
      if (l === "" || l === "…") continue;
      expect(file).not.toBeNull();
      expect(file).toContain(l);
    }
  });

  it("stays within the pack and input budgets", async () => {
    for (const prompt of ["Explain the request lifecycle and the data model invariants", "How do we revoke a user's sessions after a stolen laptop?", "Why are orders stuck in pending after the payment webhook?"]) {
      const r = await packFor(SAMPLE, prompt);
      expect(countTokens(r.pack)).toBeLessThanOrEqual(3000);
      expect(r.kb.stats.tokensRead).toBeLessThan(5000);
      expect(contentReads(r.kb).length).toBeLessThanOrEqual(6);
    }
  });
});

describe("the loader only reads", () => {
  it("leaves the KB byte-for-byte unchanged", async () => {
    const root = copySampleProject();
    const snapshot = () => listTree(root).map((rel) => [rel, fs.readFileSync(path.join(root, rel), "utf8")]);
    const before = snapshot();
    await packFor(root, "How do we revoke a user's sessions after a stolen laptop?");
    await packFor(root, "Explain the request lifecycle and the data model invariants");
    expect(snapshot()).toEqual(before);
  });

  it("checks existence (kind) only of targets that a read _index.md links to", async () => {
    const kb = new KbBuilder()
      .tree({
        sections: [
          {
            name: "payments",
            hook: "webhook retry",
            files: [
              { name: "w.md", hook: "webhook" },
              { name: "gone.md", hook: "webhook", content: null },
            ],
          },
          { name: "frontend", hook: "React storefront", files: [{ name: "styles.md", hook: "css" }] },
        ],
      })
      .file("rogue-webhook.md", "# Rogue\n\nwebhook retry\n");
    const inner = projectKbSource(await ProjectFs.open(kb.root));
    const kinds: string[] = [];
    const texts = new Map<string, string>();
    const spy: KbSource = {
      docsDir: inner.docsDir,
      stats: inner.stats,
      async read(rel) {
        const t = await inner.read(rel);
        if (t !== null) texts.set(rel, t);
        return t;
      },
      async kind(rel) {
        kinds.push(rel);
        return inner.kind(rel);
      },
      async size(rel) {
        kinds.push(rel);
        return inner.size(rel);
      },
    };
    await buildPack(spy, "Investigate webhook retry failures");
    const linked = new Set<string>();
    for (const [rel, text] of texts) if (rel.endsWith("_index.md")) for (const l of parseIndex(text, rel).links) linked.add(l.resolved!);
    expect(kinds.length).toBeGreaterThan(0);
    for (const k of kinds) expect(linked).toContain(k);
    expect(kinds).not.toContain("rogue-webhook.md");
  });
});

describe("input and latency targets", () => {
  // Latency is measured by bench/loader.bench.ts, not asserted here: timed tests flake.
  it("a 50-index KB is packed within the file, input and output limits", async () => {
    const sections: KbSectionSpec[] = Array.from({ length: 7 }, (_, i) => ({
      name: `area${i}`,
      hook: i % 2 === 0 ? `webhook retry area ${i}` : `storefront area ${i}`,
      files: [{ name: `a${i}.md`, hook: `webhook notes ${i}` }],
      sections: Array.from({ length: 6 }, (_, j) => ({ name: `sub${j}`, hook: j % 3 === 0 ? "webhook retry" : "unrelated", files: [{ name: `f${j}.md`, hook: `webhook file ${j}` }] })),
    }));
    const kb = new KbBuilder().tree({ sections });
    const indexes = listTree(kb.root).filter((f) => f.endsWith("_index.md"));
    expect(indexes.length).toBe(50);
    const r = await kb.pack("Investigate webhook retry failures");
    expect(contentReads(r.kb).length).toBeLessThanOrEqual(6);
    expect(r.kb.stats.tokensRead).toBeLessThan(5000);
    expect(countTokens(r.pack)).toBeLessThanOrEqual(3000);
  });

  it("keeps input under the 5000-token target when the matching files are large", async () => {
    // Six matching files of ~1,500 tokens each: reading all six fully is ~9,000 input tokens.
    const para = "The webhook retry worker backs off exponentially and gives up after the fifth failure; operators then replay the event by hand. ";
    const files = Array.from({ length: 6 }, (_, i) => ({ name: `webhook-${i}.md`, hook: "webhook retry failures", content: `# Webhook ${i}\n\n${para.repeat(60)}\n` }));
    expect(countTokens(files[0]!.content)).toBeGreaterThan(1200);
    const kb = new KbBuilder().tree({
      sections: [
        { name: "payments", hook: "webhook retry", files },
        { name: "frontend", hook: "React storefront", files: [{ name: "styles.md", hook: "css" }] },
      ],
    });
    const r = await kb.pack("Investigate webhook retry failures");
    expect(contentReads(r.kb).length).toBeGreaterThan(0);
    expect(r.kb.stats.tokensRead).toBeLessThan(5000);
  });
});
