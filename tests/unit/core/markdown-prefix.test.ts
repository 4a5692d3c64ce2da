import { describe, expect, it } from "vitest";
import { readPrefix } from "../../../lib/core/markdown-prefix";

describe("readPrefix", () => {
  it("reads blockquote and list markers with their columns", () => {
    const p = readPrefix("> - 1. text", 16, 64);
    expect(p.markers.map((m) => [m.kind, m.col, m.content])).toEqual([
      ["quote", 0, 2],
      ["bullet", 2, 4],
      ["ordered", 4, 7],
    ]);
    expect(p.end).toBe(7);
    expect(p.cut).toBe(-1);
    expect(readPrefix("**bold** - not a marker", 16, 64).markers).toEqual([]);
    expect(readPrefix("1.5 million", 16, 64).markers).toEqual([]);
  });

  it("marks where nesting or indentation passes the limits", () => {
    expect(readPrefix("> ".repeat(20) + "x", 16, 64).cut).toBe(32);
    expect(readPrefix(" ".repeat(70) + "x", 16, 64).cut).toBe(64);
    expect(readPrefix("\t".repeat(17) + "x", 16, 64).cut).toBe(16);
    expect(readPrefix("- ".repeat(16) + "x", 16, 64).cut).toBe(-1);
  });

  it("tells plain blockquotes from markers after deep indentation", () => {
    expect(readPrefix("> > x", 16, 64).plainQuotes).toBe(true);
    expect(readPrefix(">      > x", 16, 64).plainQuotes).toBe(false);
    expect(readPrefix("- > x", 16, 64).plainQuotes).toBe(false);
  });
});
