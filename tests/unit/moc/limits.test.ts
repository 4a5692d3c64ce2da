import { afterAll, describe, expect, it } from "vitest";
import { countTokens } from "../../../lib/core/tokens";
import { DESCENT_TOKEN_BUDGET, INPUT_TOKEN_BUDGET, MAX_FILES_READ, MAX_PACK_TOKENS, NOTE_BUDGET_EXCEEDED } from "../../../lib/moc/limits";
import { contentReads, excerptPaths, KbBuilder, listedPaths, packSection, renderIndex, type KbSectionSpec } from "../../helpers/kb-builder";
import { removeTempDirs } from "../../helpers/project-builder";

afterAll(removeTempDirs);

const PROMPT = "Investigate webhook retry timeout failures";
const OTHER: KbSectionSpec = { name: "frontend", hook: "React storefront", files: [{ name: "styles.md", hook: "css" }] };
const pad = (n: number) => String(n).padStart(2, "0");

/** The "Files with excerpts" section split per file: path → excerpt lines. */
function excerptBlocks(pack: string): Map<string, string[]> {
  const lines = pack.split("\n");
  const start = lines.indexOf("## Files with excerpts");
  const end = lines.indexOf("## Files noted but not read");
  const out = new Map<string, string[]>();
  let cur: string[] | null = null;
  for (const l of lines.slice(start + 1, end)) {
    const h = /^### `([^`]+)`$/.exec(l);
    if (h) out.set(h[1]!, (cur = []));
    else if (cur) cur.push(l);
  }
  for (const v of out.values()) while (v.length && v[v.length - 1] === "") v.pop();
  return out;
}

describe("at most 6 files read", () => {
  it("20 matching files: exactly 6 read, the other 14 listed as noted", async () => {
    expect(MAX_FILES_READ).toBe(6);
    const files = Array.from({ length: 20 }, (_, i) => ({ name: `webhook-${pad(i)}.md`, hook: `webhook notes ${i}` }));
    const r = await new KbBuilder().tree({ sections: [{ name: "payments", hook: "webhook retry", files }, OTHER] }).pack(PROMPT);
    expect(contentReads(r.kb)).toHaveLength(6);
    expect(excerptPaths(r.pack)).toHaveLength(6);
    const noted = listedPaths(r.pack, "Files noted but not read");
    expect(noted).toHaveLength(14);
    expect(packSection(r.pack, "Files noted but not read").every((l) => l.endsWith("— possibly relevant; skipped to stay in budget"))).toBe(true);
    // Read and noted are disjoint and cover all 20.
    const read = contentReads(r.kb).map((x) => `docs/${x}`);
    expect(new Set([...read, ...noted]).size).toBe(20);
  });

  it("files are ranked by number of matched keywords first, then by shallower depth", async () => {
    // Prompt tokens: investigate, webhook, retry, timeout, failures.
    const kb = new KbBuilder().tree({
      files: [{ name: "root-notes.md", hook: "webhook" }], // depth 0, 1 keyword
      sections: [
        {
          name: "zpay",
          hook: "webhook retry",
          files: [
            { name: "a-three.md", hook: "webhook retry timeout" }, // depth 1, 3
            { name: "b-two.md", hook: "webhook retry" }, // depth 1, 2
            { name: "zz-one.md", hook: "webhook" }, // depth 1, 1
          ],
          sections: [
            {
              name: "deep",
              hook: "webhook retry internals",
              files: [
                { name: "four.md", hook: "webhook retry timeout failures" }, // depth 2, 4
                { name: "two.md", hook: "retry timeout" }, // depth 2, 2
                { name: "aa-one.md", hook: "webhook" }, // depth 2, 1
              ],
            },
          ],
        },
        OTHER,
      ],
    });
    const r = await kb.pack(PROMPT);
    const order = r.walk.files.map((f) => f.path);
    expect(order).toEqual(["docs/zpay/deep/four.md", "docs/zpay/a-three.md", "docs/zpay/b-two.md", "docs/zpay/deep/two.md", "docs/root-notes.md", "docs/zpay/zz-one.md", "docs/zpay/deep/aa-one.md"]);
    // The tie at one keyword: depth 0 and 1 are read, the depth-2 file (first by name) is noted.
    expect(listedPaths(r.pack, "Files noted but not read")).toEqual(["docs/zpay/deep/aa-one.md"]);
    expect(r.kb.stats.reads).not.toContain("zpay/deep/aa-one.md");
    expect(r.kb.stats.reads).toContain("zpay/zz-one.md");
    expect(excerptPaths(r.pack)).toEqual(order.slice(0, 6));
  });

  it("files whose hooks match nothing are neither read nor noted", async () => {
    const r = await new KbBuilder()
      .tree({
        sections: [
          {
            name: "payments",
            hook: "webhook retry",
            files: [
              { name: "w.md", hook: "webhook" },
              { name: "refunds.md", hook: "refund flow" },
            ],
          },
          OTHER,
        ],
      })
      .pack(PROMPT);
    expect(contentReads(r.kb)).toEqual(["payments/w.md"]);
    expect(r.pack).not.toContain("refunds.md");
  });
});

describe("excerpts in the pack", () => {
  it("at most 2 excerpts of at most 25 lines per file, frontmatter and empty headings dropped, lines verbatim", async () => {
    const body = [
      "---",
      "title: webhook retry timeout",
      "secret_frontmatter_marker: webhook",
      "---",
      "# Webhook retries",
      "",
      "## Empty heading with webhook",
      "",
      "## Retry timeout",
      "",
      ...Array.from({ length: 40 }, (_, i) => `    webhook retry timeout line ${i + 1}   (indented, trailing spaces)  `),
      "",
      "Webhook failures paragraph, investigate this.",
      "",
      "Third webhook retry timeout failures paragraph, investigate it too.",
      "",
      "Fourth: webhook retry.",
      "",
    ].join("\n");
    const kb = new KbBuilder().tree({ sections: [{ name: "payments", hook: "webhook retry", files: [{ name: "webhooks.md", hook: "webhook retry timeout", content: body }] }, OTHER] });
    const r = await kb.pack(PROMPT);
    const f = r.walk.files.find((x) => x.path === "docs/payments/webhooks.md")!;
    expect(f.status).toBe("read");
    expect(f.excerpts.length).toBeGreaterThan(0);
    expect(f.excerpts.length).toBeLessThanOrEqual(2);
    const fileLines = body.split("\n");
    for (const e of f.excerpts) {
      expect(e.lines.length).toBeLessThanOrEqual(25);
      expect(e.lines).toEqual(fileLines.slice(e.startLine - 1, e.startLine - 1 + e.lines.length));
      expect(e.startLine).toBeGreaterThan(4);
    }
    const block = excerptBlocks(r.pack).get("docs/payments/webhooks.md")!;
    expect(block.some((l) => l.includes("secret_frontmatter_marker"))).toBe(false);
    expect(block).not.toContain("## Empty heading with webhook");
    // Excerpt separators aside, every emitted line is a line of the file, verbatim.
    for (const l of block) if (l !== "…") expect(fileLines).toContain(l);
    const excerptsInPack = block.join("\n").split("\n…\n");
    expect(excerptsInPack.length).toBeLessThanOrEqual(2);
    for (const e of excerptsInPack) expect(e.split("\n").length).toBeLessThanOrEqual(25);
  });
});

describe("pack ≤ 3000 tokens", () => {
  it("six large matching files within the input budget: the pack is trimmed to fit, with a note", async () => {
    expect(MAX_PACK_TOKENS).toBe(3000);
    // About 600 tokens a file: six fit the 5,000-token input target, their excerpts do not fit 3,000.
    const line = (i: number) => `webhook retry timeout failures: the provider retried and gave up, see the incident notes ${i}`;
    const paragraph = (from: number) => Array.from({ length: 12 }, (_, i) => line(from + i)).join("\n");
    const body = (k: number) => [`# Large ${k}`, "", paragraph(0), "", paragraph(100)].join("\n");
    const files = Array.from({ length: 8 }, (_, k) => ({ name: `large-${k}.md`, hook: "webhook retry timeout failures", content: body(k) }));
    const r = await new KbBuilder().tree({ sections: [{ name: "payments", hook: "webhook retry", files }, OTHER] }).pack(PROMPT);
    expect(contentReads(r.kb)).toHaveLength(6);
    expect(r.kb.stats.tokensRead).toBeLessThan(INPUT_TOKEN_BUDGET);
    expect(countTokens(r.pack)).toBeLessThanOrEqual(3000);
    expect(r.packTokens).toBe(countTokens(r.pack));
    expect(packSection(r.pack, "Notes")).toContain("- Pack trimmed to stay within 3000 tokens.");
    expect(r.pack.startsWith("<!-- context-loader:v1 -->\n# Context pack\n\nTrivial: no\n")).toBe(true);
  });

  it("files too large for the input budget are noted, not read", async () => {
    const huge = `# Huge\n\n${"webhook retry timeout failures and more words to fill the file. ".repeat(800)}\n`;
    const files = Array.from({ length: 3 }, (_, k) => ({ name: `huge-${k}.md`, hook: "webhook retry timeout failures", content: huge }));
    const r = await new KbBuilder().tree({ sections: [{ name: "payments", hook: "webhook retry", files }, OTHER] }).pack(PROMPT);
    expect(contentReads(r.kb)).toHaveLength(0);
    expect(r.kb.stats.tokensRead).toBeLessThan(INPUT_TOKEN_BUDGET);
    expect(packSection(r.pack, "Files noted but not read").join("\n")).toContain("skipped to stay in the input budget");
  });

  it("a small pack is not trimmed and has no trim note", async () => {
    const r = await new KbBuilder().tree({ sections: [{ name: "payments", hook: "webhook retry", files: [{ name: "w.md", hook: "webhook" }] }, OTHER] }).pack(PROMPT);
    expect(r.pack).not.toContain("trimmed");
  });

  it("300 matching files linked from one section: the noted list still fits in 3000 tokens", async () => {
    const files = Array.from({ length: 300 }, (_, i) => ({ name: `w${String(i).padStart(3, "0")}.md`, hook: "webhook" }));
    const r = await new KbBuilder().tree({ sections: [{ name: "hooks", hook: "webhook retry", files }, OTHER] }).pack(PROMPT);
    expect(contentReads(r.kb).length).toBeLessThanOrEqual(6);
    expect(r.kb.stats.tokensRead).toBeLessThan(INPUT_TOKEN_BUDGET);
    expect(countTokens(r.pack)).toBeLessThanOrEqual(MAX_PACK_TOKENS);
  });
});

describe("budget-exceeded fallback", () => {
  /** A section index of roughly `tokens` tokens of hooks that do not match the prompt. */
  function bulkyIndex(name: string, dir: string, children: string[], tokens: number): string {
    const extra: string[] = [];
    let i = 0;
    let text = "";
    do {
      extra.push(`Background paragraph ${i++} about deployment pipelines, container images and staging clusters.`);
      text = renderIndex({
        title: `${name}/`,
        description: `Webhook retry area ${name}.`,
        path: `docs/${dir}/`,
        sections: children.map((c) => ({ name: c, hook: `webhook retry ${c}` })),
        files: [{ name: "w.md", hook: "webhook retry" }],
        extra: extra.join("\n"),
      });
    } while (countTokens(text) < tokens);
    return text;
  }

  function bigKb(): KbBuilder {
    const kb = new KbBuilder().tree({
      sections: [
        { name: "payments", hook: "webhook retry handling", index: "" },
        { name: "ops", hook: "webhook retry runbooks", index: "" },
        { name: "frontend", hook: "React storefront", files: [{ name: "styles.md", hook: "css" }] },
      ],
    });
    for (const top of ["payments", "ops"]) {
      const subs = Array.from({ length: 6 }, (_, i) => `sub${i}`);
      kb.file(`${top}/_index.md`, bulkyIndex(top, top, subs, 300)).file(`${top}/w.md`, "# W\n\nwebhook retry\n");
      for (const s of subs) {
        kb.file(`${top}/${s}/_index.md`, bulkyIndex(s, `${top}/${s}`, [], 600)).file(`${top}/${s}/w.md`, "# W\n\nwebhook retry\n");
      }
    }
    return kb;
  }

  it("descent over the budget: the exact note, root-level sections only, no excerpts", async () => {
    // Descent gets part of the seed's 5,000-token input target; files need the rest.
    expect(DESCENT_TOKEN_BUDGET).toBeLessThan(INPUT_TOKEN_BUDGET);
    expect(INPUT_TOKEN_BUDGET).toBe(5000);
    const r = await bigKb().pack(PROMPT);
    expect(r.kb.stats.tokensRead).toBeGreaterThan(DESCENT_TOKEN_BUDGET);
    expect(r.walk.budgetExceeded).toBe(true);
    expect(NOTE_BUDGET_EXCEEDED).toBe("Budget exceeded during descent; returned root-level sections only. Main agent should dispatch a follow-up with a narrower prompt if needed.");
    expect(packSection(r.pack, "Notes")).toContain(`- ${NOTE_BUDGET_EXCEEDED}`);
    const listed = listedPaths(r.pack, "Relevant sections walked");
    expect(listed).toEqual(["docs/payments/_index.md", "docs/ops/_index.md"]);
    expect(listed.every((p) => p.split("/").length === 3)).toBe(true);
    expect(packSection(r.pack, "Files with excerpts")).toEqual(["- (none)"]);
    expect(contentReads(r.kb)).toEqual([]);
    expect(countTokens(r.pack)).toBeLessThanOrEqual(MAX_PACK_TOKENS);
    expect(r.pack.startsWith("<!-- context-loader:v1 -->\n# Context pack\n\nTrivial: no\n")).toBe(true);
  });

  it("the same KB with a narrower prompt that matches nothing bulky does not fall back", async () => {
    const r = await bigKb().pack("Investigate the React storefront css regressions");
    expect(r.walk.budgetExceeded).toBe(false);
    expect(r.pack).not.toContain(NOTE_BUDGET_EXCEEDED);
  });

  /** 220 matching root sections: the seed's "200+ files and many ambiguous matches" case. */
  const manySections = () =>
    new KbBuilder().tree({
      sections: Array.from({ length: 220 }, (_, i) => ({ name: `webhook-area-${i}`, hook: "webhook retry handling for this area", files: [{ name: "a.md", hook: "webhook" }] })),
    });

  it("220 matching root sections: the partial pack still fits in 3000 tokens", async () => {
    const r = await manySections().pack(PROMPT);
    expect(r.walk.budgetExceeded).toBe(true);
    expect(contentReads(r.kb)).toEqual([]);
    expect(countTokens(r.pack)).toBeLessThanOrEqual(MAX_PACK_TOKENS);
  });

  it("220 matching root sections: trimming the pack keeps the fallback note", async () => {
    const r = await manySections().pack(PROMPT);
    expect(r.walk.budgetExceeded).toBe(true);
    expect(packSection(r.pack, "Notes")).toContain(`- ${NOTE_BUDGET_EXCEEDED}`);
  });
});

describe("large files", () => {
  it("a linked matching file too large to read is not silently dropped from the pack", async () => {
    const big = `# Big\n\nwebhook retry\n${"filler text line\n".repeat(70_000)}`; // ~1.2 MB
    const r = await new KbBuilder()
      .tree({
        sections: [
          {
            name: "payments",
            hook: "webhook retry",
            files: [
              { name: "big.md", hook: "webhook retry timeout", content: big },
              { name: "small.md", hook: "webhook" },
            ],
          },
          OTHER,
        ],
      })
      .pack(PROMPT);
    expect(contentReads(r.kb)).toEqual(["payments/small.md"]);
    // The file was a top candidate: it must show up somewhere (excerpts, noted, or a note).
    expect(r.pack).toContain("docs/payments/big.md");
  });
});
