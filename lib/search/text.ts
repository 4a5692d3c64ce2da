/**
 * Text as the full-text indexes see it. Both engines split words on anything that is not a
 * letter or digit, which leaves scripts written without spaces (Chinese, Japanese, Thai…) as
 * one long "word". Before indexing and before querying, such runs get U+200B between their
 * parts: invisible when shown, a separator to FTS5's unicode61 and to PostgreSQL's parser.
 * Chinese and Japanese are split into single characters, so a query (a phrase of
 * characters) matches any substring, as people expect there; Thai, Lao, Khmer and Myanmar
 * into the words Intl.Segmenter finds.
 */
import { stemmer } from "stemmer";
import { HIGHLIGHT_END, HIGHLIGHT_START } from "./schemas";

const WORD_BREAK = "\u200B";
/** Runs of characters from scripts that do not separate words with spaces. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30FC]+/gu;
const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC]/u;

const segmenter = new Intl.Segmenter(undefined, { granularity: "word" });

function splitUnspaced(run: string): string {
  if (CJK.test(run)) {
    // Runs mixing CJK with Thai etc. do not occur in practice; split what is CJK per character.
    return [...run].join(WORD_BREAK);
  }
  const words: string[] = [];
  for (const s of segmenter.segment(run)) words.push(s.segment);
  return words.join(WORD_BREAK);
}

/** The text to store in the index: unchanged except for word breaks inside unspaced scripts. */
export function segmentForIndex(text: string): string {
  // Stray highlight marks in indexed content would fake highlights in snippets; PostgreSQL
  // text cannot hold NUL.
  const clean = text.replace(/[\u0000\uE000\uE001\u200B]/g, "");
  return clean.replace(UNSPACED, splitUnspaced);
}

/** Text from the index as people should see it. */
export function stripWordBreaks(text: string): string {
  return text.replaceAll(WORD_BREAK, "");
}

/** One term of a parsed query: a word (optionally a prefix) or a phrase of words. */
export interface QueryTerm {
  words: string[];
  prefix: boolean;
}

/** Letters and digits only, folded to lower case; each engine's tokenizer does the rest. */
function wordsOf(text: string): string[] {
  return segmentForIndex(text.normalize("NFC"))
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter(Boolean);
}

/** The words of a text, space-separated: what PostgreSQL's "tsv" column is built from. */
export function indexWords(text: string): string {
  return wordsOf(text).join(" ");
}

/**
 * Parses what a person typed: `"quoted phrases"`, words, and a trailing `*` for a prefix.
 * Everything else (operators, brackets, colons) is treated as a separator, so no input can
 * reach either engine's query syntax.
 */
export function parseQuery(input: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  const re = /"([^"]*)"?|(\S+)/g;
  for (const m of input.matchAll(re)) {
    if (m[1] !== undefined) {
      const words = wordsOf(m[1]);
      if (words.length > 0) terms.push({ words, prefix: false });
      continue;
    }
    const raw = m[2]!;
    const words = wordsOf(raw);
    const prefix = raw.endsWith("*");
    // "export_jobs" or "foo-bar" is one thing typed: match its words as a phrase.
    if (words.length > 0) terms.push({ words, prefix });
  }
  return terms.slice(0, 32);
}

const quoteFts = (w: string) => `"${w.replaceAll('"', '""')}"`;

/**
 * Whether a query is searched through the stemmed index. A prefix (`invo*`) is matched as
 * typed: a stemmed prefix is not always the start of the stemmed word it was cut from
 * ("abilit*" against "ability", stored as "abil"), and a prefix already finds the other forms.
 */
export const searchesStems = (terms: QueryTerm[]): boolean => terms.every((t) => !t.prefix);

/** An FTS5 MATCH expression: every term (AND) or any term (OR). */
export function toFts5(terms: QueryTerm[], mode: "all" | "any"): string {
  const parts = terms.map((t) => {
    const phrase = t.words.map(quoteFts).join(" + ");
    return t.prefix ? `${phrase} *` : phrase;
  });
  return parts.join(mode === "all" ? " AND " : " OR ");
}

/** A PostgreSQL to_tsquery expression: words are letters and digits only, so they need no quoting. */
export function toTsquery(terms: QueryTerm[], mode: "all" | "any"): string {
  const parts = terms.map((t) => {
    const words = t.words.map((w, i) => (t.prefix && i === t.words.length - 1 ? `${w}:*` : w));
    return words.length === 1 ? words[0]! : `(${words.join(" <-> ")})`;
  });
  return parts.join(mode === "all" ? " & " : " | ");
}

/** Splits a snippet into plain and highlighted parts for rendering (no HTML involved). */
export function snippetParts(snippet: string): { text: string; hit: boolean }[] {
  const parts: { text: string; hit: boolean }[] = [];
  let hit = false;
  let buf = "";
  for (const ch of snippet) {
    if (ch === HIGHLIGHT_START || ch === HIGHLIGHT_END) {
      if (buf) parts.push({ text: buf, hit });
      buf = "";
      hit = ch === HIGHLIGHT_START;
    } else buf += ch;
  }
  if (buf) parts.push({ text: buf, hit });
  return parts;
}

/** FTS5's porter tokenizer leaves tokens longer than this (in bytes) as they are. */
const FTS5_PORTER_MAX_TOKEN = 64;

/**
 * A folded word's stem as the SQLite index stores it: the `stemmer` package is Porter's
 * algorithm as FTS5's porter tokenizer applies it (tests/unit/search/stems.test.ts compares
 * the two). PostgreSQL stems with Snowball's English, Porter's successor: a word the two stem
 * differently is only left unmarked, never missed by the search itself.
 */
const utf8 = new TextEncoder();
const stemOf = (w: string) => (utf8.encode(w).length > FTS5_PORTER_MAX_TOKEN ? w : stemmer(w));

const fold = (w: string) =>
  w
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
/** How much of a long body a snippet looks at: a match past this shows the body's start. */
const SNIPPET_SCAN = 50_000;

/**
 * A snippet of about `width` words around the densest cluster of query words, with matches
 * marked. Used where the engine's own snippet function would not find the words (PostgreSQL's
 * parser tokenizes paths differently from the index, see the migration).
 */
export function makeSnippet(text: string, terms: QueryTerm[], width = 24): string {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const t of terms) {
    t.words.forEach((w, i) => (t.prefix && i === t.words.length - 1 ? prefixes.push(fold(w)) : exact.add(fold(w))));
  }
  // A stemmed search matched other forms of the words too ("webhooks" for webhook): mark them.
  // Stemming only rewrites a word's last letters, so only words that begin like a query stem
  // (less its last two letters) are stemmed: a long body costs a few stems, not thousands.
  const stems = searchesStems(terms) ? new Set([...exact].map(stemOf)) : new Set<string>();
  const heads = [...stems].map((st) => st.slice(0, Math.max(1, st.length - 2)));
  const sameStem = (w: string) => heads.some((h) => w.startsWith(h)) && stems.has(stemOf(w));
  const body = segmentForIndex(text.slice(0, SNIPPET_SCAN));
  const words = [...body.matchAll(/[\p{L}\p{N}\p{M}]+/gu)];
  const isHit = words.map((m) => {
    const w = fold(m[0]);
    return exact.has(w) || prefixes.some((p) => w.startsWith(p)) || sameStem(w);
  });
  let best = 0;
  let bestCount = -1;
  let count = 0;
  for (let i = 0; i < words.length; i++) {
    if (isHit[i]) count++;
    if (i >= width && isHit[i - width]) count--;
    if (count > bestCount) {
      bestCount = count;
      best = Math.max(0, i - width + 1);
    }
  }
  if (words.length === 0) return stripWordBreaks(body.slice(0, 200));
  const last = Math.min(words.length, best + width) - 1;
  // A window at either end keeps the text's own leading and trailing punctuation ("[JIRA-1] …?").
  let out = best > 0 ? "…" : "";
  let pos = best > 0 ? words[best]!.index! : 0;
  for (let i = best; i <= last; i++) {
    const m = words[i]!;
    out += body.slice(pos, m.index) + (isHit[i] ? `${HIGHLIGHT_START}${m[0]}${HIGHLIGHT_END}` : m[0]);
    pos = m.index! + m[0].length;
  }
  out += last < words.length - 1 ? "…" : body.slice(pos);
  return stripWordBreaks(out.replace(/\s+/g, " "));
}
