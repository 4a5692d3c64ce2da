import { describe, expect, it } from "vitest";
import { extractExcerpts, MAX_EXCERPT_LINES, MAX_EXCERPTS_PER_FILE } from "../../../lib/moc/excerpts";
import { promptTokens } from "../../../lib/moc/keywords";

const tokens = promptTokens("investigate webhook retry timeout");

/** Every excerpt must be a run of consecutive lines of the file, exactly as written. */
function expectVerbatim(text: string, ex: { startLine: number; lines: string[] }): void {
  const lines = text.split("\n");
  expect(ex.lines).toEqual(lines.slice(ex.startLine - 1, ex.startLine - 1 + ex.lines.length));
}

describe("extractExcerpts", () => {
  it("uses the seed's limits", () => {
    expect(MAX_EXCERPTS_PER_FILE).toBe(2);
    expect(MAX_EXCERPT_LINES).toBe(25);
  });

  it("keeps at most 2 excerpts even when many blocks match, the best-matching ones, in file order", () => {
    const paras = [
      "Intro paragraph about nothing in particular.",
      "The webhook handler is here.",
      "Webhook retry with a timeout: the key paragraph.",
      "Another webhook note.",
      "Retry policy and webhook timeout again, investigate first.",
      "Trailing webhook mention.",
    ];
    const text = paras.join("\n\n");
    const ex = extractExcerpts(text, tokens);
    expect(ex).toHaveLength(2);
    expect(ex.map((e) => e.lines.join("\n"))).toEqual([paras[2], paras[4]]);
    expect(ex[0]!.startLine).toBeLessThan(ex[1]!.startLine);
    for (const e of ex) expectVerbatim(text, e);
  });

  it("cuts a long block to 25 lines, verbatim", () => {
    const long = Array.from({ length: 60 }, (_, i) => `  webhook line ${i + 1}  with   odd   spacing\t`);
    const text = ["# Title", "", ...long].join("\n");
    const ex = extractExcerpts(text, tokens);
    expect(ex.length).toBeGreaterThan(0);
    for (const e of ex) {
      expect(e.lines.length).toBeLessThanOrEqual(25);
      expectVerbatim(text, e);
    }
    const all = ex.flatMap((e) => e.lines);
    expect(all).toContain("  webhook line 1  with   odd   spacing\t");
  });

  it("skips frontmatter even when it carries the keywords", () => {
    const text = ["---", "title: webhook retry timeout", "tags: [webhook, retry, timeout]", "---", "", "# Notes", "", "The webhook is retried once."].join("\n");
    const ex = extractExcerpts(text, tokens);
    expect(ex.length).toBeGreaterThan(0);
    const all = ex.flatMap((e) => e.lines);
    expect(all.some((l) => l.startsWith("title:") || l.startsWith("tags:") || l === "---")).toBe(false);
    expect(all).toContain("The webhook is retried once.");
    for (const e of ex) expect(e.startLine).toBeGreaterThan(4);
  });

  it("never returns a heading with nothing under it", () => {
    const text = ["# Webhook retry timeout", "", "## Webhook", "", "## Retry timeout", "## Timeout webhook retry", "", "Body with webhook."].join("\n");
    const ex = extractExcerpts(text, tokens);
    for (const e of ex) {
      expect(e.lines.some((l) => l.trim() !== "" && !/^#{1,6}\s/.test(l))).toBe(true);
      expectVerbatim(text, e);
    }
    const headingsOnly = ex.filter((e) => e.lines.every((l) => /^#{1,6}\s/.test(l) || l.trim() === ""));
    expect(headingsOnly).toEqual([]);
  });

  it("an empty trailing heading is dropped", () => {
    const text = ["Webhook body.", "", "## Webhook retry timeout"].join("\n");
    const ex = extractExcerpts(text, tokens);
    expect(ex.map((e) => e.lines)).toEqual([["Webhook body."]]);
  });

  it("keeps the heading directly above a paragraph", () => {
    const text = ["# T", "", "## Retry policy", "", "Retries back off for 5 minutes.", "", "## Other", "", "Nothing."].join("\n");
    const ex = extractExcerpts(text, tokens);
    expect(ex).toHaveLength(1);
    expect(ex[0]!.lines).toEqual(["## Retry policy", "", "Retries back off for 5 minutes."]);
    expectVerbatim(text, ex[0]!);
  });

  it("with no match falls back to one excerpt, the first non-empty block", () => {
    const text = ["---", "a: b", "---", "", "First paragraph.", "", "Second paragraph."].join("\n");
    const ex = extractExcerpts(text, tokens);
    expect(ex).toHaveLength(1);
    expect(ex[0]!.lines).toEqual(["First paragraph."]);
  });

  it("returns nothing for an empty or frontmatter-only file", () => {
    expect(extractExcerpts("", tokens)).toEqual([]);
    expect(extractExcerpts("---\ntitle: webhook\n---\n", tokens)).toEqual([]);
  });

  it("keeps CRLF files' lines without the carriage return", () => {
    const ex = extractExcerpts("# T\r\n\r\nWebhook retry here.\r\n", tokens);
    expect(ex.flatMap((e) => e.lines)).toContain("Webhook retry here.");
    expect(ex.flatMap((e) => e.lines).some((l) => l.includes("\r"))).toBe(false);
  });

  it("is deterministic", () => {
    const text = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? "" : `webhook ${i} retry`)).join("\n");
    expect(extractExcerpts(text, tokens)).toEqual(extractExcerpts(text, tokens));
  });
});
