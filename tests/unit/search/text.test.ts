import { describe, expect, it } from "vitest";
import { HIGHLIGHT_END as E, HIGHLIGHT_START as S } from "../../../lib/search/schemas";
import { indexWords, makeSnippet, parseQuery, segmentForIndex, snippetParts, stripWordBreaks, toFts5, toTsquery } from "../../../lib/search/text";

describe("parseQuery", () => {
  it("reads words, quoted phrases and trailing prefixes", () => {
    expect(parseQuery('Export "queued jobs" expo*')).toEqual([
      { words: ["export"], prefix: false },
      { words: ["queued", "jobs"], prefix: false },
      { words: ["expo"], prefix: true },
    ]);
  });

  it("keeps an identifier's parts together as a phrase", () => {
    expect(parseQuery("export_queue foo-bar lib/jobs.ts")).toEqual([
      { words: ["export", "queue"], prefix: false },
      { words: ["foo", "bar"], prefix: false },
      { words: ["lib", "jobs", "ts"], prefix: false },
    ]);
  });

  it("drops operators and punctuation, so nothing reaches either engine's syntax", () => {
    expect(parseQuery('NEAR( AND OR * : ^ "" -')).toEqual([
      { words: ["near"], prefix: false },
      { words: ["and"], prefix: false },
      { words: ["or"], prefix: false },
    ]);
    expect(parseQuery('"unclosed phrase')).toEqual([{ words: ["unclosed", "phrase"], prefix: false }]);
  });

  it("splits Chinese and Japanese into characters and keeps accents for the engines to fold", () => {
    expect(parseQuery("東京タワー")).toEqual([{ words: ["東", "京", "タ", "ワ", "ー"], prefix: false }]);
    expect(parseQuery("Café")).toEqual([{ words: ["café"], prefix: false }]);
  });

  it("bounds the number of terms", () => {
    expect(parseQuery(Array.from({ length: 50 }, (_, i) => `w${i}`).join(" "))).toHaveLength(32);
  });
});

describe("engine expressions", () => {
  const terms = parseQuery('export "queued jobs" expo* say"hi');
  it("FTS5: quoted strings, + for phrases, * for prefixes", () => {
    expect(toFts5(terms, "all")).toBe('"export" AND "queued" + "jobs" AND "expo" * AND "say" + "hi"');
    expect(toFts5(parseQuery("a b"), "any")).toBe('"a" OR "b"');
  });
  it("PostgreSQL: <-> for phrases, :* for prefixes", () => {
    expect(toTsquery(terms, "all")).toBe("export & (queued <-> jobs) & expo:* & (say <-> hi)");
    expect(toTsquery(parseQuery("a b"), "any")).toBe("a | b");
  });
});

describe("indexed text", () => {
  it("puts invisible word breaks inside unspaced scripts only", () => {
    expect(segmentForIndex("Hello 東京 world")).toBe("Hello 東\u200B京 world");
    expect(stripWordBreaks(segmentForIndex("東京タワー"))).toBe("東京タワー");
    expect(segmentForIndex("ภาษาไทย").split("\u200B").length).toBeGreaterThan(1);
  });
  it("removes stray highlight marks and NUL", () => {
    expect(segmentForIndex(`a${S}b${E}\u0000c`)).toBe("abc");
  });
  it("gives PostgreSQL the same words the query parser makes", () => {
    expect(indexWords("lib/jobs/export_queue.ts retries 3.5 times")).toBe("lib jobs export queue ts retries 3 5 times");
  });
});

describe("snippets", () => {
  it("cuts a window around the densest matches and marks them", () => {
    const text = `${"filler ".repeat(60)}the export queue retries export jobs ${"tail ".repeat(60)}`;
    const s = makeSnippet(text, parseQuery("export"), 12);
    expect(s.startsWith("…")).toBe(true);
    expect(s.endsWith("…")).toBe(true);
    expect(s).toContain(`${S}export${E} queue retries ${S}export${E}`);
  });
  it("matches case and accent folded, and prefixes", () => {
    expect(makeSnippet("Un Café naïf", parseQuery("cafe naif"))).toBe(`Un ${S}Café${E} ${S}naïf${E}`);
    expect(makeSnippet("Exporting now", parseQuery("expo*"))).toBe(`${S}Exporting${E} now`);
  });
  it("splits a snippet into plain and highlighted parts", () => {
    expect(snippetParts(`a ${S}b${E} c`)).toEqual([
      { text: "a ", hit: false },
      { text: "b", hit: true },
      { text: " c", hit: false },
    ]);
  });
});

describe("titles", () => {
  it("keep their leading and trailing punctuation when the whole text fits", () => {
    expect(makeSnippet("[JIRA-123] feat(export): done?", parseQuery("export"), 10_000)).toBe(`[JIRA-123] feat(${S}export${E}): done?`);
  });
});
