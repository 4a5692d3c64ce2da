import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { countTokens } from "../../../lib/core/tokens";
import { formatPack, PACK_MARKER } from "../../../lib/moc/format";
import { NOTE_FRESH_KB } from "../../../lib/moc/limits";
import { loaderForPath } from "../../../lib/moc/service";
import { contentReads, KbBuilder, listedPaths, packFor, packSection } from "../../helpers/kb-builder";
import { makeTempDir, removeTempDirs } from "../../helpers/project-builder";

afterAll(removeTempDirs);

const MARKER = "<!-- context-loader:v1 -->";
const BRAIN = "/work/shared/fixtures/central-brain/brain";
const PROMPT = "Investigate why webhook retries time out in production";

/** A populated KB: three sections with content, one irrelevant. */
function populated(): KbBuilder {
  return new KbBuilder().tree({
    sections: [
      {
        name: "payments",
        hook: "payment provider integration, webhook handling and retries",
        files: [
          {
            name: "webhooks.md",
            hook: "webhook endpoint, signature checks, retry schedule",
            content: "# Webhooks\n\n## Context\nThe webhook endpoint verifies signatures.\n\n## Retry schedule\nRetries back off: 1m, 5m, 30m.\n",
          },
          { name: "refunds.md", hook: "refund flow" },
        ],
      },
      { name: "frontend", hook: "React storefront, styling and components", files: [{ name: "styles.md", hook: "css tokens" }] },
      { name: "ops", hook: "on-call runbooks for production incidents", files: [{ name: "timeouts.md", hook: "gateway timeout triage" }] },
    ],
  });
}

describe("kb_not_initialized", () => {
  it("no docs/ at all: byte-exact error pack", async () => {
    const r = await new KbBuilder().pack(PROMPT);
    expect(r.pack).toBe(`${MARKER}\n# Context pack\n\nError: kb_not_initialized\n`);
    expect(r.walk.error).toBe("kb_not_initialized");
    expect(r.kb.stats.filesRead).toBe(0);
  });

  it("docs/ with sections but no docs/_index.md: the same error, and nothing else is read", async () => {
    const kb = populated();
    kb.remove("_index.md");
    const r = await kb.pack(PROMPT);
    expect(r.pack).toBe(`${MARKER}\n# Context pack\n\nError: kb_not_initialized\n`);
    expect(r.kb.stats.reads).toEqual([]);
  });

  it("through loaderForPath too", async () => {
    const root = makeTempDir("wb-kb-");
    const r = await loaderForPath(root, PROMPT);
    expect(r.pack).toBe(`${MARKER}\n# Context pack\n\nError: kb_not_initialized\n`);
    expect(r.tokenizer).toMatch(/cl100k_base/);
  });
});

describe("fresh KB", () => {
  it("most section indexes missing or placeholder-only: the exact note, and only indexes are read", async () => {
    const kb = new KbBuilder().tree({
      sections: [
        { name: "architecture", hook: "how webhook retries are built", files: [{ name: "webhooks.md", hook: "webhook retries" }] },
        { name: "runbooks", hook: "webhook on-call", index: "# runbooks/\n\n> On-call.\n\n## Content\n- _(empty)_\n" },
        { name: "decisions", hook: "webhook ADRs", index: "# decisions/\n\n<!-- TODO: write the first ADR -->\n" },
        { name: "onboarding", hook: "webhook onboarding", index: null },
      ],
      files: [{ name: "webhook-overview.md", hook: "webhook retries overview" }],
    });
    const r = await kb.pack(PROMPT);
    expect(r.walk.freshKb).toBe(true);
    expect(packSection(r.pack, "Notes")).toContain(`- ${NOTE_FRESH_KB}`);
    expect(NOTE_FRESH_KB).toBe("KB initialized but mostly empty — minimal context available.");
    expect(contentReads(r.kb)).toEqual([]);
    expect(r.kb.stats.reads.every((x) => x.endsWith("_index.md"))).toBe(true);
    expect(packSection(r.pack, "Files with excerpts")).toEqual(["- (none)"]);
    expect(r.pack.startsWith(`${MARKER}\n# Context pack\n\nTrivial: no\n`)).toBe(true);
  });

  it("a root index with no sections at all is fresh", async () => {
    const r = await new KbBuilder().tree({ files: [{ name: "webhooks.md", hook: "webhook retries" }] }).pack(PROMPT);
    expect(r.walk.freshKb).toBe(true);
    expect(packSection(r.pack, "Notes")).toContain(`- ${NOTE_FRESH_KB}`);
    expect(contentReads(r.kb)).toEqual([]);
  });

  it("half empty is not 'most': 2 of 4 sections populated is walked normally", async () => {
    const kb = new KbBuilder().tree({
      sections: [
        { name: "payments", hook: "webhook retries", files: [{ name: "webhooks.md", hook: "webhook retries" }] },
        { name: "ops", hook: "on-call", files: [{ name: "x.md", hook: "x" }] },
        { name: "empty1", hook: "nothing", index: "# empty1/\n\n- _(empty)_\n" },
        { name: "empty2", hook: "nothing", index: null },
      ],
    });
    const r = await kb.pack(PROMPT);
    expect(r.walk.freshKb).toBe(false);
    expect(r.pack).not.toContain(NOTE_FRESH_KB);
    expect(contentReads(r.kb)).toEqual(["payments/webhooks.md"]);
  });

  it("the central-brain fixture (copied to docs/) is a fresh KB: the note, and no content file read", async () => {
    const root = makeTempDir("wb-brain-");
    fs.cpSync(BRAIN, path.join(root, "docs"), { recursive: true });
    const r = await packFor(root, "how should I plan the deploy of the example client agents");
    expect(r.walk.freshKb).toBe(true);
    expect(packSection(r.pack, "Notes")).toContain(`- ${NOTE_FRESH_KB}`);
    expect(contentReads(r.kb)).toEqual([]);
    expect(r.kb.stats.reads).toEqual(["_index.md", "knowledge/_index.md", "work/_index.md", "tools/_index.md"]);
    // The missing buckets are reported as broken links, and the walk did not abort.
    for (const missing of ["personal", "ideas", "agents", "workspaces"]) {
      expect(r.pack).toContain(`Broken link in docs/_index.md: \`./${missing}/\` (docs/${missing}/_index.md is missing)`);
    }
    expect(countTokens(r.pack)).toBeLessThanOrEqual(3000);
  });

  it("the central-brain fixture in place (docsDir `brain`) is fresh too", async () => {
    const r = await packFor(path.dirname(BRAIN), "review the learnings about deploy and infra", "brain");
    expect(r.walk.freshKb).toBe(true);
    expect(r.pack).toContain(NOTE_FRESH_KB);
    expect(contentReads(r.kb)).toEqual([]);
  });
});

describe("non-trivial pack format", () => {
  it("marker, Trivial: no, one-line prompt summary, and the four sections in order", async () => {
    const r = await populated().pack(PROMPT);
    const lines = r.pack.split("\n");
    expect(lines.slice(0, 5)).toEqual([MARKER, "# Context pack", "", "Trivial: no", `Prompt summary: ${PROMPT}`]);
    const heads = ["## Relevant sections walked", "## Files with excerpts", "## Files noted but not read", "## Notes"];
    const at = heads.map((h) => lines.indexOf(h));
    expect(at.every((i) => i > 4)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(r.pack.endsWith("\n")).toBe(true);
    expect(r.pack).not.toMatch(/^\s*[{[]/m); // no JSON anywhere
    expect(listedPaths(r.pack, "Relevant sections walked")).toEqual(["docs/payments/_index.md", "docs/ops/_index.md"]);
    expect(packSection(r.pack, "Files with excerpts")[0]).toBe("### `docs/payments/webhooks.md`");
  });

  it("empty sections show `- (none)`", async () => {
    const kb = new KbBuilder().tree({
      sections: [
        { name: "frontend", hook: "React storefront", files: [{ name: "styles.md", hook: "css" }] },
        { name: "design", hook: "visual identity", files: [{ name: "logo.md", hook: "logo" }] },
      ],
    });
    const r = await kb.pack("Investigate database replication lag in the reporting cluster");
    expect(packSection(r.pack, "Relevant sections walked")).toEqual(["- (none)"]);
    expect(packSection(r.pack, "Files with excerpts")).toEqual(["- (none)"]);
    expect(packSection(r.pack, "Files noted but not read")).toEqual(["- (none)"]);
    expect(packSection(r.pack, "Notes")).toEqual(["- (none)"]);
    expect(r.pack).toBe(
      [
        MARKER,
        "# Context pack",
        "",
        "Trivial: no",
        "Prompt summary: Investigate database replication lag in the reporting cluster",
        "",
        "## Relevant sections walked",
        "- (none)",
        "",
        "## Files with excerpts",
        "- (none)",
        "",
        "## Files noted but not read",
        "- (none)",
        "",
        "## Notes",
        "- (none)",
        "",
      ].join("\n"),
    );
  });

  it("the prompt summary is one line, even for a multi-line prompt, and at most 120 characters", async () => {
    const long = `Investigate webhook retries\n\n${"and the timeout handling ".repeat(20)}`;
    const r = await populated().pack(long);
    const summary = r.pack.split("\n").find((l) => l.startsWith("Prompt summary: "))!;
    expect(summary.length - "Prompt summary: ".length).toBeLessThanOrEqual(120);
    expect(summary).toContain("Investigate webhook retries and the timeout");
    expect(r.pack.split("\n")[5]).toBe("");
  });

  it("the prompt is scored verbatim, not rewritten", async () => {
    const r = await populated().pack(PROMPT);
    expect(r.walk.prompt).toBe(PROMPT);
  });

  it("formatPack and the marker constant agree with the seed", () => {
    expect(PACK_MARKER).toBe(MARKER);
    const walk = {
      prompt: "x",
      trivial: null,
      error: null,
      promptSummary: "x",
      tokens: [],
      judge: "j",
      sections: [],
      files: [],
      notes: [],
      freshKb: false,
      budgetExceeded: false,
      input: { filesRead: 0, bytesRead: 0, tokensRead: 0 },
    };
    expect(formatPack(walk).startsWith(`${MARKER}\n# Context pack\n\nTrivial: no\nPrompt summary: x\n`)).toBe(true);
  });
});

describe("determinism", () => {
  it("the same KB and prompt give the identical pack twice", async () => {
    const kb = populated();
    const a = await kb.pack(PROMPT);
    const b = await kb.pack(PROMPT);
    expect(b.pack).toBe(a.pack);
    expect(b.kb.stats.reads).toEqual(a.kb.stats.reads);
    expect(b.packTokens).toBe(a.packTokens);
  });

  it("on the sample project too", async () => {
    const root = path.resolve(import.meta.dirname, "..", "..", "..", "examples", "sample-project");
    const prompt = "How do we revoke a user's sessions after a stolen laptop?";
    const a = await packFor(root, prompt);
    const b = await packFor(root, prompt);
    expect(b.pack).toBe(a.pack);
  });

  it("packTokens is countTokens of the pack", async () => {
    const r = await populated().pack(PROMPT);
    expect(r.packTokens).toBe(countTokens(r.pack));
  });
});
