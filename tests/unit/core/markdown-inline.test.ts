import { describe, expect, it } from "vitest";
import { BRACKET_CHARS, EMPHASIS_CHARS, escapeMarkup, inlineDepth, tableCells } from "../../../lib/core/markdown-inline";

describe("inlineDepth", () => {
  it("counts matched emphasis pairs, a strong level per two markers", () => {
    expect(inlineDepth("*a* **b** ***c***").emphasis).toBe(2);
    expect(inlineDepth("*a **b _c ~~d~~ c_ b** a*").emphasis).toBe(4);
    expect(inlineDepth("*".repeat(5000) + "x" + "*".repeat(5000)).emphasis).toBe(2500);
    expect(inlineDepth("**a ".repeat(300) + "x" + " a**".repeat(300)).emphasis).toBe(300);
  });

  it("ignores markers that never close, intraword underscores and code spans", () => {
    expect(inlineDepth('<a target="_blank"> '.repeat(100)).emphasis).toBe(0);
    expect(inlineDepth("a* ".repeat(1000)).emphasis).toBe(0);
    expect(inlineDepth("snake_case_name and other_name").emphasis).toBe(0);
    expect(inlineDepth("`" + "*".repeat(100) + "x" + "*".repeat(100) + "`").emphasis).toBe(0);
    expect(inlineDepth("\\*".repeat(50) + "x" + "\\*".repeat(50)).emphasis).toBe(0);
  });

  it("counts nested link labels, not unmatched brackets", () => {
    expect(inlineDepth("[a](b) [c][d]").brackets).toBe(1);
    expect(inlineDepth("[".repeat(300) + "x" + "](y)".repeat(300)).brackets).toBe(300);
    expect(inlineDepth("[".repeat(300) + "x").brackets).toBe(0);
  });
});

describe("escapeMarkup", () => {
  it("escapes the chosen characters outside code spans and leaves escaped ones alone", () => {
    expect(escapeMarkup("*a* `*b*` \\*c", EMPHASIS_CHARS)).toBe("\\*a\\* `*b*` \\*c");
    expect(escapeMarkup("[x](y) `[z]`", BRACKET_CHARS)).toBe("\\[x\\](y) `[z]`");
  });
});

describe("tableCells", () => {
  it("counts cells the way GFM splits a row", () => {
    expect(tableCells("| a | b |")).toBe(2);
    expect(tableCells("a | b | c")).toBe(3);
    expect(tableCells("| a \\| b |")).toBe(1);
    expect(tableCells("|-".repeat(500) + "|")).toBe(500);
  });
});
