import { describe, expect, it } from "vitest";
import { HIGHLIGHT_END as E, HIGHLIGHT_START as S } from "../../../lib/search/schemas";
import { porterStem } from "../../../lib/search/porter";
import { makeSnippet, parseQuery, searchesStems } from "../../../lib/search/text";

describe("porterStem", () => {
  it("gives the stems of Porter's own examples, as FTS5's porter tokenizer stores them", () => {
    const cases: Record<string, string> = {
      caresses: "caress",
      ponies: "poni",
      cats: "cat",
      feed: "feed",
      agreed: "agre",
      plastered: "plaster",
      motoring: "motor",
      sing: "sing",
      conflated: "conflat",
      hopping: "hop",
      filing: "file",
      happy: "happi",
      relational: "relat",
      generalization: "gener",
      triplicate: "triplic",
      hopeful: "hope",
      goodness: "good",
      adjustment: "adjust",
      adoption: "adopt",
      controll: "control",
      roll: "roll",
    };
    expect(Object.fromEntries(Object.keys(cases).map((w) => [w, porterStem(w)]))).toEqual(cases);
  });

  it("folds a word's forms together and leaves identifiers, short words and other scripts alone", () => {
    expect(new Set(["webhook", "webhooks"].map(porterStem))).toEqual(new Set(["webhook"]));
    expect(new Set(["export", "exports", "exporting", "exported", "exporter"].map(porterStem))).toEqual(new Set(["export"]));
    expect(porterStem("exportjob")).toBe("exportjob");
    expect(porterStem("is")).toBe("is");
    expect(porterStem("jira123")).toBe("jira123");
    expect(porterStem("résumés")).toBe("résumés");
  });
});

describe("stemmed snippets", () => {
  it("mark the other forms of the words a stemmed search matched", () => {
    expect(makeSnippet("When webhooks fail, one webhook is retried.", parseQuery("webhook"))).toBe(`When ${S}webhooks${E} fail, one ${S}webhook${E} is retried.`);
    expect(makeSnippet("Deliveries were retried", parseQuery("retry delivery"))).toBe(`${S}Deliveries${E} were ${S}retried${E}`);
  });

  it("a prefix query is matched as typed, so only the prefix is marked", () => {
    expect(searchesStems(parseQuery("webho*"))).toBe(false);
    expect(searchesStems(parseQuery("webhook replay"))).toBe(true);
    expect(makeSnippet("webhooks and webbing", parseQuery("webho*"))).toBe(`${S}webhooks${E} and webbing`);
  });
});
