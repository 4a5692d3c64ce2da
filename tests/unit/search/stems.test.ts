import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { HIGHLIGHT_END as E, HIGHLIGHT_START as S } from "../../../lib/search/schemas";
import { makeSnippet, parseQuery, searchesStems } from "../../../lib/search/text";

/** The stemmed FTS5 table's tokenizer, as the migration that creates it spells it. */
function stemTokenizer(): string {
  const sql = fs.readFileSync(path.resolve("prisma/sqlite/migrations/20261203090000_search_stems_kb/migration.sql"), "utf8");
  const tokenize = /CREATE VIRTUAL TABLE "SearchEntryStem"[^;]*tokenize='([^']+)'/.exec(sql)?.[1];
  expect(tokenize).toContain("porter");
  return tokenize!;
}

// Forms of a word (and near misses), Porter's own examples, identifiers, accented words and a
// token past FTS5's 64-byte stemming limit.
const LONG = "sourcemapconsumerprototypeallgeneratedpositionsfororiginalpositions";
const WORDS = [
  ...["webhook", "webhooks", "web", "hooks"],
  ...["delivery", "deliveries", "delivered", "redelivery", "retry", "retried", "retries", "retrying"],
  ...["export", "exports", "exporting", "exported", "exporter", "exportjob", "exportjobs"],
  ...["caresses", "caress", "ponies", "pony", "agreed", "agree", "feed", "plastered", "motoring", "hopping", "hop", "filing", "file"],
  ...["relational", "relate", "relation", "generalization", "general", "generate", "triplicate", "hopeful", "goodness", "adjustment", "adoption", "controll", "control"],
  ...["happy", "happiness", "happily", "ability", "able", "eed", "e", "ies", "ie"],
  ...["résumés", "resume", "resumed", "naïve", "naive"],
  ...["jira123", "jira", "v2", "is", "as"],
  ...[LONG, LONG.slice(0, -1)],
];

describe("marking stemmed matches", () => {
  it("marks a word exactly when the stemmed FTS5 index matches it for the query word", () => {
    const db = new Database(":memory:");
    try {
      db.exec(`CREATE VIRTUAL TABLE stems USING fts5(body, tokenize='${stemTokenizer()}')`);
      const insert = db.prepare("INSERT INTO stems (rowid, body) VALUES (?, ?)");
      WORDS.forEach((w, i) => insert.run(i + 1, w));
      const match = db.prepare(`SELECT rowid FROM stems WHERE stems MATCH ? ORDER BY rowid`).pluck();
      const disagreements: string[] = [];
      for (const q of WORDS) {
        const found = new Set((match.all(`"${q}"`) as number[]).map((id) => WORDS[id - 1]!));
        for (const w of WORDS) {
          const marked = makeSnippet(w, parseQuery(q)) === `${S}${w}${E}`;
          if (marked !== found.has(w)) disagreements.push(`${q} → ${w}: FTS5 ${found.has(w) ? "matches" : "does not match"}, snippet ${marked ? "marks" : "does not mark"}`);
        }
      }
      expect(disagreements).toEqual([]);
    } finally {
      db.close();
    }
  });

  it("folds a word's forms together and leaves identifiers and short words alone", () => {
    const marks = (q: string, text: string) => makeSnippet(text, parseQuery(q)).includes(S);
    expect(marks("webhook", "webhooks")).toBe(true);
    expect(["exports", "exporting", "exported", "exporter"].every((w) => marks("export", w))).toBe(true);
    expect(marks("exportJob", "export")).toBe(false);
    expect(marks("is", "as")).toBe(false);
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
