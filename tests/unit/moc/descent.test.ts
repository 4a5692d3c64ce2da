import { afterAll, describe, expect, it } from "vitest";
import { countTokens } from "../../../lib/core/tokens";
import { DESCENT_TOKEN_BUDGET, MAX_DEPTH, OVERSIZE_INDEX_LINES } from "../../../lib/moc/limits";
import { contentReads, excerptPaths, KbBuilder, listedPaths, packSection, renderIndex, type KbSectionSpec } from "../../helpers/kb-builder";
import { removeTempDirs } from "../../helpers/project-builder";

afterAll(removeTempDirs);

const PROMPT = "Investigate webhook retry failures";

/** Directory depth of a docs-relative _index.md: `a/b/_index.md` is 2. */
const indexDepth = (rel: string) => rel.split("/").length - 1;

/** A second, unrelated but populated section, so the KB is not "mostly empty". */
const OTHER: KbSectionSpec = { name: "frontend", hook: "React storefront", files: [{ name: "styles.md", hook: "css" }] };

describe("descent depth", () => {
  /** s1/s2/.../s6, each relevant, each with a matching file. */
  function chain(levels: number): KbSectionSpec {
    let spec: KbSectionSpec | undefined;
    for (let i = levels; i >= 1; i--) {
      spec = {
        name: `s${i}`,
        hook: `webhook retry layer ${i}`,
        files: [{ name: `webhook-${i}.md`, hook: `webhook retry notes level ${i}` }],
        sections: spec ? [spec] : [],
      };
    }
    return spec!;
  }

  it("never reads an _index.md deeper than depth 3, and notes the depth limit", async () => {
    expect(MAX_DEPTH).toBe(3);
    const kb = new KbBuilder().tree({ sections: [chain(6), OTHER] });
    const r = await kb.pack(PROMPT);
    const indexes = r.kb.stats.reads.filter((x) => x.endsWith("_index.md"));
    expect(indexes).toContain("s1/s2/s3/_index.md");
    expect(indexes.filter((x) => indexDepth(x) > 3)).toEqual([]);
    for (const deep of ["s1/s2/s3/s4/_index.md", "s1/s2/s3/s4/s5/_index.md", "s1/s2/s3/s4/s5/s6/_index.md"]) {
      expect(r.kb.stats.reads).not.toContain(deep);
    }
    // Nothing below depth 3 is read at all.
    expect(r.kb.stats.reads.filter((x) => x.startsWith("s1/s2/s3/s4/"))).toEqual([]);
    const notes = packSection(r.pack, "Notes");
    expect(notes.some((n) => n.includes("docs/s1/s2/s3/_index.md") && /depth limit 3/.test(n))).toBe(true);
    expect(listedPaths(r.pack, "Relevant sections walked")).toEqual(["docs/s1/_index.md", "docs/s1/s2/_index.md", "docs/s1/s2/s3/_index.md"]);
    // Files linked from the depth-3 index are still candidates.
    expect(contentReads(r.kb).sort()).toEqual(["s1/s2/s3/webhook-3.md", "s1/s2/webhook-2.md", "s1/webhook-1.md"]);
  });

  it("a chain of exactly 3 levels has no depth-limit note", async () => {
    const r = await new KbBuilder().tree({ sections: [chain(3), OTHER] }).pack(PROMPT);
    expect(r.pack).not.toMatch(/depth limit/);
    expect(contentReads(r.kb)).toHaveLength(3);
  });
});

describe("descent only through _index.md links", () => {
  it("a folder link [x/](./x/) means x/_index.md", async () => {
    const kb = new KbBuilder().tree({ sections: [{ name: "payments", hook: "webhook retry", files: [{ name: "w.md", hook: "webhook" }] }, OTHER] });
    const r = await kb.pack(PROMPT);
    expect(r.kb.stats.reads).toContain("payments/_index.md");
    expect(listedPaths(r.pack, "Relevant sections walked")).toEqual(["docs/payments/_index.md"]);
  });

  it("explicit ./x/_index.md links work the same", async () => {
    const kb = new KbBuilder()
      .tree({ sections: [OTHER], extra: "## More sections\n- [payments](./payments/_index.md) — webhook retry" })
      .file("payments/_index.md", renderIndex({ title: "payments/", description: "Payments.", path: "docs/payments/", files: [{ name: "w.md", hook: "webhook" }] }))
      .file("payments/w.md", "# W\n\nWebhook retry.\n");
    const r = await kb.pack(PROMPT);
    expect(r.kb.stats.reads).toEqual(["_index.md", "frontend/_index.md", "payments/_index.md", "payments/w.md"]);
  });

  it("[[wiki]] links resolve: a section and a file", async () => {
    const kb = new KbBuilder()
      .tree({ sections: [OTHER], extra: "## Wiki\n- [[payments/]] — webhook retry handling\n- [[webhook-guide]] — webhook retry guide" })
      .file("payments/_index.md", "# payments/\n\n> Payment webhooks.\n\n## Content\n- [[retries|Retry policy]] — webhook retry schedule\n")
      .file("payments/retries.md", "# Retries\n\nWebhook retry schedule: 1m, 5m.\n")
      .file("webhook-guide.md", "# Guide\n\nWebhook retry guide body.\n");
    const r = await kb.pack(PROMPT);
    expect(r.kb.stats.reads).toContain("payments/_index.md");
    expect(contentReads(r.kb).sort()).toEqual(["payments/retries.md", "webhook-guide.md"]);
    expect(excerptPaths(r.pack).sort()).toEqual(["docs/payments/retries.md", "docs/webhook-guide.md"]);
  });

  it("links escaping docs/ are noted and never read", async () => {
    const kb = new KbBuilder()
      .tree({
        sections: [
          {
            name: "payments",
            hook: "webhook retry",
            files: [{ name: "w.md", hook: "webhook" }],
            extra: "## Elsewhere\n- [secrets](../../secret-webhook.md) — webhook retry secrets",
          },
          OTHER,
        ],
        extra: "## Outside\n- [secret](../secret.md) — webhook retry credentials\n- [abs](/etc/webhook.md) — webhook",
      })
      .projectFile("secret.md", "# Secret\n\nwebhook retry password\n")
      .projectFile("secret-webhook.md", "# Secret\n\nwebhook retry password\n");
    const r = await kb.pack(PROMPT);
    expect(r.kb.stats.reads.some((x) => x.includes("secret") || x.includes(".."))).toBe(false);
    expect(r.pack).not.toContain("password");
    const notes = packSection(r.pack, "Notes");
    expect(notes.some((n) => n.includes("docs/_index.md") && n.includes("`../secret.md`") && /outside docs/.test(n))).toBe(true);
    expect(notes.some((n) => n.includes("`/etc/webhook.md`"))).toBe(true);
    expect(notes.some((n) => n.includes("docs/payments/_index.md") && n.includes("`../../secret-webhook.md`"))).toBe(true);
  });

  it("a matching file that no index links to is never read (reachability rule)", async () => {
    const kb = new KbBuilder()
      .tree({ sections: [{ name: "payments", hook: "webhook retry", files: [{ name: "w.md", hook: "webhook" }] }, OTHER], files: [{ name: "a.md", hook: "about" }] })
      .file("webhook-retry-failures.md", "# Webhook retry failures\n\nInvestigate webhook retry failures here.\n")
      .file("payments/webhook-retry-orphan.md", "# Orphan\n\nWebhook retry failures.\n")
      .file("rogue/_index.md", "# rogue/\n\n> Webhook retry failures.\n\n## Content\n- [r.md](./r.md) — webhook retry failures\n")
      .file("rogue/r.md", "# R\n\nWebhook retry failures.\n");
    const r = await kb.pack(PROMPT);
    expect(r.kb.stats.reads).not.toContain("webhook-retry-failures.md");
    expect(r.kb.stats.reads).not.toContain("payments/webhook-retry-orphan.md");
    expect(r.kb.stats.reads.filter((x) => x.startsWith("rogue/"))).toEqual([]);
    expect(r.pack).not.toContain("orphan");
    expect(r.pack).not.toContain("rogue");
    // Every read is the root or reachable from it through index links.
    expect(r.kb.stats.reads).toEqual(["_index.md", "payments/_index.md", "frontend/_index.md", "payments/w.md"]);
  });

  it("cycles between indexes do not loop or re-read", async () => {
    const kb = new KbBuilder()
      .tree({ sections: [{ name: "a", hook: "webhook retry", sections: [{ name: "b", hook: "webhook retry back", files: [{ name: "bw.md", hook: "webhook" }] }] }, OTHER] })
      .file("a/b/_index.md", "# b/\n\n> Webhook.\n\n## Sections\n- [a/](../) — webhook retry parent\n- [root/](../../) — webhook root\n\n## Content\n- [bw.md](./bw.md) — webhook\n");
    const r = await kb.pack(PROMPT);
    const counts = new Map<string, number>();
    for (const x of r.kb.stats.reads) counts.set(x, (counts.get(x) ?? 0) + 1);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(r.kb.stats.reads).toContain("a/b/bw.md");
  });
});

describe("broken links", () => {
  it("a broken file link is noted and its siblings are still read", async () => {
    const kb = new KbBuilder().tree({
      sections: [
        {
          name: "payments",
          hook: "webhook retry",
          files: [
            { name: "missing-webhook.md", hook: "webhook retry (gone)", content: null },
            { name: "webhook-retries.md", hook: "webhook retry schedule" },
          ],
        },
        OTHER,
      ],
    });
    const r = await kb.pack(PROMPT);
    const notes = packSection(r.pack, "Notes");
    expect(notes).toContain("- Broken link in docs/payments/_index.md: `./missing-webhook.md` (docs/payments/missing-webhook.md is missing); siblings still walked.");
    expect(contentReads(r.kb)).toEqual(["payments/webhook-retries.md"]);
    expect(excerptPaths(r.pack)).toEqual(["docs/payments/webhook-retries.md"]);
  });

  it("a broken section link is noted and sibling sections are still walked", async () => {
    const kb = new KbBuilder().tree({
      sections: [
        { name: "gone", hook: "webhook retry archive", index: null },
        { name: "payments", hook: "webhook retry", files: [{ name: "w.md", hook: "webhook retry" }] },
        { name: "ops", hook: "webhook on-call", files: [{ name: "o.md", hook: "webhook runbook" }] },
      ],
    });
    const r = await kb.pack(PROMPT);
    expect(packSection(r.pack, "Notes")).toContain("- Broken link in docs/_index.md: `./gone/` (docs/gone/_index.md is missing); siblings still walked.");
    expect(contentReads(r.kb).sort()).toEqual(["ops/o.md", "payments/w.md"]);
  });

  it("a broken section link is not listed under 'Relevant sections walked' (it was never walked)", async () => {
    const kb = new KbBuilder().tree({
      sections: [{ name: "gone", hook: "webhook retry archive", index: null }, { name: "payments", hook: "webhook retry", files: [{ name: "w.md", hook: "webhook retry" }] }, OTHER],
    });
    const r = await kb.pack(PROMPT);
    expect(listedPaths(r.pack, "Relevant sections walked")).toEqual(["docs/payments/_index.md"]);
  });

  it("a broken child section deeper down is noted with the parent index, siblings walked", async () => {
    const kb = new KbBuilder().tree({
      sections: [
        {
          name: "payments",
          hook: "webhook retry",
          sections: [
            { name: "old", hook: "webhook retry legacy", index: null },
            { name: "stripe", hook: "webhook retry stripe", files: [{ name: "s.md", hook: "webhook retry stripe" }] },
          ],
        },
        OTHER,
      ],
    });
    const r = await kb.pack(PROMPT);
    expect(packSection(r.pack, "Notes")).toContain("- Broken link in docs/payments/_index.md: `./old/` (docs/payments/old/_index.md is missing); siblings still walked.");
    expect(contentReads(r.kb)).toEqual(["payments/stripe/s.md"]);
  });
});

describe("oversize _index.md", () => {
  it("an index over 500 lines is noted and still read; its links are followed, even those past line 500", async () => {
    expect(OVERSIZE_INDEX_LINES).toBe(500);
    const lines = ["# payments/", "", "> Webhook retry handling.", "", "## Content", "- [early.md](./early.md) — webhook retry early"];
    while (lines.length < 560) lines.push("");
    lines.push("- [late.md](./late.md) — webhook retry late", "");
    const text = lines.join("\n");
    const kb = new KbBuilder()
      .tree({ sections: [{ name: "payments", hook: "webhook retry", index: text }, OTHER] })
      .file("payments/early.md", "# Early\n\nWebhook retry early body.\n")
      .file("payments/late.md", "# Late\n\nWebhook retry late body.\n");
    expect(countTokens(text)).toBeLessThan(DESCENT_TOKEN_BUDGET);
    const r = await kb.pack(PROMPT);
    const notes = packSection(r.pack, "Notes");
    expect(notes.some((n) => n.includes("docs/payments/_index.md") && /over the 500-line rule/.test(n))).toBe(true);
    expect(r.walk.budgetExceeded).toBe(false);
    expect(contentReads(r.kb).sort()).toEqual(["payments/early.md", "payments/late.md"]);
    expect(excerptPaths(r.pack).sort()).toEqual(["docs/payments/early.md", "docs/payments/late.md"]);
  });

  it("an oversize root index is noted too", async () => {
    const kb = new KbBuilder().tree({ sections: [{ name: "payments", hook: "webhook retry", files: [{ name: "w.md", hook: "webhook" }] }, OTHER], extra: "\n".repeat(600) });
    const r = await kb.pack(PROMPT);
    expect(packSection(r.pack, "Notes").some((n) => n.includes("docs/_index.md") && /500-line rule/.test(n))).toBe(true);
    expect(contentReads(r.kb)).toEqual(["payments/w.md"]);
  });

  it("an index of exactly 500 lines (newline-terminated) is within the rule and not noted", async () => {
    const lines = ["# payments/", "", "> Webhook retry handling.", "", "## Content", "- [w.md](./w.md) — webhook retry"];
    while (lines.length < 500) lines.push("");
    const text = lines.join("\n") + "\n";
    expect(text.split("\n").length - 1).toBe(500); // 500 newline-terminated lines, as `wc -l` counts
    const kb = new KbBuilder().tree({ sections: [{ name: "payments", hook: "webhook retry", index: text }, OTHER] }).file("payments/w.md", "# W\n\nWebhook.\n");
    const r = await kb.pack(PROMPT);
    expect(r.pack).not.toMatch(/500-line rule/);
  });
});
