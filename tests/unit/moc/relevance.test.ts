import { afterAll, describe, expect, it } from "vitest";
import { keywordJudge, type JudgeItem, type RelevanceJudge } from "../../../lib/moc/judge";
import { matchedKeywords, promptTokens, stem } from "../../../lib/moc/keywords";
import { contentReads, KbBuilder, listedPaths, packSection } from "../../helpers/kb-builder";
import { removeTempDirs } from "../../helpers/project-builder";

afterAll(removeTempDirs);

describe("keywords", () => {
  it("prompt tokens are lower-cased words of 3+ letters without stopwords, in order, once", () => {
    expect(promptTokens("Fix the Webhook retries; the WEBHOOK retries in prod?")).toEqual(["fix", "webhook", "retries", "prod"]);
  });

  it("naïve substring match on stems, case-insensitive", () => {
    expect(stem("webhooks")).toBe("webhook");
    expect(stem("retries")).toBe("retry");
    expect(matchedKeywords(["webhooks", "retries", "ledger"], "Webhook RETRY schedule")).toEqual(["webhooks", "retries"]);
    expect(matchedKeywords(["ledger"], "payments and refunds")).toEqual([]);
  });
});

describe("keywordJudge", () => {
  const item = (over: Partial<JudgeItem>): JudgeItem => ({ path: "docs/x/_index.md", name: "x", description: "", matched: [], indexHead: "", ...over });
  const tokens = promptTokens("configure the ledger reconciliation");

  it("a keyword hit in the description is relevant", () => {
    expect(keywordJudge.judge("", tokens, [item({ matched: ["ledger"] })])).toEqual(["relevant"]);
  });

  it("prompt words in the index head promote; a shared 5-letter stem is maybe; else irrelevant", () => {
    expect(
      keywordJudge.judge("", tokens, [
        item({ indexHead: "# x\n- [l.md](./l.md) — ledger close" }),
        item({ name: "setup", description: "configuration of environments" }),
        item({ name: "frontend", description: "React storefront" }),
      ]),
    ).toEqual(["relevant", "maybe", "irrelevant"]);
  });
});

/** Filler lines without any prompt word. */
const filler = (n: number) => Array.from({ length: n }, (_, i) => `Filler line ${i + 1} about nothing in particular.`);

/** A section index with the one mention of the prompt words on `line` (1-based). */
function indexWithMentionAt(name: string, line: number): string {
  const head = [`# ${name}/`, "", "> Runbooks for operators.", "", "## Content", "- [general.md](./general.md) — general notes"];
  const lines = [...head, ...filler(line - head.length - 1), "- [ledger.md](./ledger.md) — ledger reconciliation steps", ...filler(5)];
  return lines.join("\n") + "\n";
}

describe("section relevance in the walk", () => {
  const PROMPT = "investigate ledger reconciliation drift";

  function kb() {
    return new KbBuilder()
      .tree({
        sections: [
          { name: "ledger", hook: "ledger reconciliation and double entry", files: [{ name: "close.md", hook: "ledger month-end close" }] },
          { name: "frontend", hook: "React storefront and components", files: [{ name: "ui-notes.md", hook: "css tokens", content: "# UI\n\nLedger reconciliation drift is shown here.\n" }] },
          { name: "ops20", hook: "runbooks for operators", index: indexWithMentionAt("ops20", 20) },
          { name: "ops40", hook: "runbooks for operators", index: indexWithMentionAt("ops40", 40) },
        ],
      })
      .file("ops20/ledger.md", "# Ledger\n\nLedger reconciliation at line 20 section.\n")
      .file("ops20/general.md", "# General\n\nNothing.\n")
      .file("ops40/ledger.md", "# Ledger\n\nLedger reconciliation at line 40 section.\n")
      .file("ops40/general.md", "# General\n\nNothing.\n");
  }

  it("keyword intersection with the hook labels a section relevant and walks it", async () => {
    const r = await kb().pack(PROMPT);
    const ledger = r.walk.sections.find((s) => s.path === "docs/ledger/_index.md")!;
    expect(ledger.label).toBe("relevant");
    expect(ledger.matched).toEqual(["ledger", "reconciliation"]);
    expect(ledger.walked).toBe(true);
    expect(listedPaths(r.pack, "Relevant sections walked")).toContain("docs/ledger/_index.md");
    expect(contentReads(r.kb)).toContain("ledger/close.md");
  });

  it("zero overlap is irrelevant: not listed, not walked, its files never read even when their content matches", async () => {
    const r = await kb().pack(PROMPT);
    const fe = r.walk.sections.find((s) => s.path === "docs/frontend/_index.md")!;
    expect(fe.label).toBe("irrelevant");
    expect(fe.walked).toBe(false);
    expect(listedPaths(r.pack, "Relevant sections walked")).not.toContain("docs/frontend/_index.md");
    expect(contentReads(r.kb)).not.toContain("frontend/ui-notes.md");
    expect(r.pack).not.toContain("ui-notes.md");
  });

  it("the default judge promotes a section whose index mentions prompt words in its first 30 lines", async () => {
    const r = await kb().pack(PROMPT);
    const ops20 = r.walk.sections.find((s) => s.path === "docs/ops20/_index.md")!;
    expect(ops20.matched).toEqual([]);
    expect(ops20.label).toBe("relevant");
    expect(ops20.walked).toBe(true);
    expect(listedPaths(r.pack, "Relevant sections walked")).toContain("docs/ops20/_index.md");
    expect(contentReads(r.kb)).toContain("ops20/ledger.md");
  });

  it("a mention on line 40 (past the 30-line head) does not promote", async () => {
    const r = await kb().pack(PROMPT);
    const ops40 = r.walk.sections.find((s) => s.path === "docs/ops40/_index.md")!;
    expect(ops40.label).toBe("irrelevant");
    expect(ops40.walked).toBe(false);
    expect(listedPaths(r.pack, "Relevant sections walked")).not.toContain("docs/ops40/_index.md");
    expect(contentReads(r.kb)).not.toContain("ops40/ledger.md");
    // Sanity: the mention really is on line 40 / 20.
    expect(indexWithMentionAt("ops40", 40).split("\n")[39]).toContain("ledger reconciliation");
    expect(indexWithMentionAt("ops20", 20).split("\n")[19]).toContain("ledger reconciliation");
  });

  it("a 'maybe' section is noted in Notes and not walked", async () => {
    const kb = new KbBuilder().tree({
      sections: [
        { name: "billing", hook: "invoices and ledger", files: [{ name: "ledger.md", hook: "ledger entries" }] },
        {
          name: "setup",
          hook: "configuration of environments",
          description: "Environment variables per stage.",
          files: [{ name: "env.md", hook: "environment variable list" }],
          sections: [{ name: "deep", hook: "nested setup", files: [{ name: "deep.md", hook: "deep notes" }] }],
        },
      ],
    });
    const r = await kb.pack("configure the ledger for the new region");
    const setup = r.walk.sections.find((s) => s.path === "docs/setup/_index.md")!;
    expect(setup.label).toBe("maybe");
    expect(setup.walked).toBe(false);
    const notes = packSection(r.pack, "Notes");
    expect(notes.some((n) => n.includes("docs/setup/_index.md") && /maybe/i.test(n))).toBe(true);
    expect(listedPaths(r.pack, "Relevant sections walked")).toEqual(["docs/billing/_index.md"]);
    // Not walked: neither its files nor its child sections' indexes are read.
    expect(r.kb.stats.reads).not.toContain("setup/env.md");
    expect(r.kb.stats.reads).not.toContain("setup/deep/_index.md");
    expect(r.kb.stats.reads).not.toContain("setup/deep/deep.md");
  });

  it("a custom judge can demote a keyword match and promote a non-match", async () => {
    const flip: RelevanceJudge = {
      name: "flip judge",
      judge: (_p, _t, items) => items.map((it) => (it.name === "frontend" ? "relevant" : it.name === "ledger" ? "irrelevant" : "irrelevant")),
    };
    const r = await kb().pack(PROMPT, flip);
    expect(listedPaths(r.pack, "Relevant sections walked")).toEqual(["docs/frontend/_index.md"]);
    // Walked, but its only file's hook does not match the prompt: nothing to read.
    expect(r.walk.sections.find((s) => s.path === "docs/frontend/_index.md")!.walked).toBe(true);
    expect(contentReads(r.kb)).toEqual([]);
    expect(r.walk.judge).toBe("flip judge");
  });

  it("the judge sees descriptions and at most 30 index lines, never whole files", async () => {
    const seen: JudgeItem[] = [];
    const spy: RelevanceJudge = { name: "spy", judge: (_p, _t, items) => (seen.push(...items), items.map(() => "irrelevant" as const)) };
    await kb().pack(PROMPT, spy);
    expect(seen.length).toBeGreaterThan(0);
    for (const it of seen) expect(it.indexHead.split("\n").length).toBeLessThanOrEqual(30);
    const ops40 = seen.find((s) => s.name === "ops40")!;
    expect(ops40.indexHead).not.toContain("ledger reconciliation");
  });
});
