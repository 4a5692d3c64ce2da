/** Step 4(a): prompt tokens against description text, by naïve substring match. */

const STOPWORDS = new Set(
  "the and for with that this from into onto when what where which who whom whose why how are was were been being have has had does did doing can could should would will shall may might must our ours your yours their theirs its it's about over under than then them they there these those some any all each every other also just only very more most such not nor but yet out off own same too via per let lets please need needs want wants make made get got use using used like".split(
    " ",
  ),
);

/** Lower-cased words of the prompt, three letters or more, without stopwords, in order. */
export function promptTokens(prompt: string): string[] {
  const out: string[] = [];
  for (const t of prompt
    .toLowerCase()
    .normalize("NFC")
    .split(/[^\p{L}\p{N}]+/u)) {
    if (t.length >= 3 && !STOPWORDS.has(t) && !out.includes(t)) out.push(t);
  }
  return out;
}

/** A light suffix strip so "webhooks" finds "webhook" and "retries" finds "retry". */
export function stem(t: string): string {
  if (t.length < 5) return t;
  if (t.endsWith("ies")) return t.slice(0, -3) + "y";
  if (t.endsWith("ing") && t.length >= 6) return t.slice(0, -3);
  if (t.endsWith("ed") && t.length >= 6) return t.slice(0, -2);
  if (t.endsWith("s") && !t.endsWith("ss")) return t.slice(0, -1);
  return t;
}

/** Prompt tokens found inside the text (substring of the stem, case-insensitive). */
export function matchedKeywords(tokens: string[], text: string): string[] {
  const hay = text.toLowerCase().normalize("NFC");
  return tokens.filter((t) => hay.includes(stem(t)));
}
