import { getEncoding } from "js-tiktoken";
import { describe, expect, it } from "vitest";
import { LONG_RUN, countTokens } from "../../../lib/core/tokens";

const encoding = getEncoding("cl100k_base");
const exact = (text: string) => encoding.encode(text, [], []).length;

describe("countTokens", () => {
  it("is the exact cl100k_base count for ordinary text, special-token text included", () => {
    const prose = "## Context Packet\n\n**Task**: Persist export jobs across restarts.\n- [ ] returns the queued jobs after a restart\n".repeat(12);
    expect(countTokens(prose)).toBe(exact(prose));
    expect(countTokens("see <|endoftext|> here")).toBe(exact("see <|endoftext|> here"));
    const wide = `${"word ".repeat(100)}${"x".repeat(LONG_RUN - 1)} end`;
    expect(countTokens(wide)).toBe(exact(wide));
  });

  it("counts a run of 20,000 letters (a pasted blob) in slices, close to the exact count", () => {
    // Exact BPE on this one piece is quadratic (about 25 s in js-tiktoken); eight a's make one token either way.
    expect(countTokens("a".repeat(20_000))).toBe(2_500);
    const mixed = `intro ${"b".repeat(5_000)} outro`;
    const slices = Array.from({ length: Math.ceil(5_000 / 128) }, (_, i) => exact("b".repeat(Math.min(128, 5_000 - i * 128))));
    expect(countTokens(mixed)).toBe(exact("intro ") + slices.reduce((a, b) => a + b, 0) + exact(" outro"));
  });

  it("never splits a surrogate pair when slicing a long run of symbols", () => {
    const emoji = "😀".repeat(300);
    const sliced = countTokens(emoji);
    // Slices of 128 emoji, not of 128 UTF-16 units (which would cut pairs and count replacement characters).
    expect(sliced).toBe(exact("😀".repeat(128)) * 2 + exact("😀".repeat(44)));
    expect(Math.abs(sliced - exact(emoji))).toBeLessThanOrEqual(Math.ceil(300 / 128));
  });
});
