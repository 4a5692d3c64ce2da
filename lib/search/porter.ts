/**
 * Martin Porter's stemmer, as SQLite's FTS5 `porter` tokenizer applies it (with the "bli" and
 * "logi" rules of his later version), so snippets and titles mark the words a stemmed search
 * matched ("webhooks" for `webhook`). PostgreSQL stems with Snowball's English, Porter's
 * successor: it folds the same common endings, and a word the two stem differently is only
 * left unmarked, never missed by the search itself.
 */

/** FTS5 leaves tokens shorter than 3 or longer than 64 characters as they are. */
const MIN = 3;
const MAX = 64;

const isVowelAt = (w: string, i: number): boolean => {
  const c = w[i]!;
  if ("aeiou".includes(c)) return true;
  // y is a vowel after a consonant ("happy"), a consonant first or after a vowel ("yes", "say").
  return c === "y" && i > 0 && !isVowelAt(w, i - 1);
};

/** The number of vowel-consonant sequences in a stem: [C](VC){m}[V]. */
function measure(stem: string): number {
  let m = 0;
  let i = 0;
  const n = stem.length;
  while (i < n && !isVowelAt(stem, i)) i++;
  while (i < n) {
    while (i < n && isVowelAt(stem, i)) i++;
    if (i >= n) break;
    m++;
    while (i < n && !isVowelAt(stem, i)) i++;
  }
  return m;
}

const hasVowel = (stem: string) => [...stem].some((_, i) => isVowelAt(stem, i));
const endsDouble = (w: string) => w.length >= 2 && w[w.length - 1] === w[w.length - 2] && !isVowelAt(w, w.length - 1);
/** Ends consonant-vowel-consonant, the last not w, x or y ("hop", not "snow"). */
const endsCvc = (w: string) => {
  const n = w.length;
  return n >= 3 && !isVowelAt(w, n - 3) && isVowelAt(w, n - 2) && !isVowelAt(w, n - 1) && !"wxy".includes(w[n - 1]!);
};

/** The first rule whose suffix the word has decides: replaced when the stem passes, else kept. */
function replaceFirst(w: string, rules: readonly (readonly [string, string])[], ok: (stem: string) => boolean): string {
  for (const [suffix, to] of rules) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, w.length - suffix.length);
    return ok(stem) ? stem + to : w;
  }
  return w;
}

const STEP2 = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["bli", "ble"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
  ["logi", "log"],
] as const;
// Longer suffixes first where one ends another ("ational" before "tional").
const STEP2_SORTED = [...STEP2].sort((a, b) => b[0].length - a[0].length);

const STEP3 = [
  ["icate", "ic"],
  ["ative", ""],
  ["alize", "al"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
] as const;

const STEP4 = ["ement", "ment", "ance", "ence", "able", "ible", "ant", "ent", "ion", "ism", "ate", "iti", "ous", "ive", "ize", "al", "er", "ic", "ou"] as const;

/** The Porter stem of one lower-case word. */
export function porterStem(word: string): string {
  if (word.length < MIN || word.length > MAX || !/^[a-z]+$/.test(word)) return word;
  let w = word;

  // Step 1a: plurals.
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("ies")) w = w.slice(0, -2);
  else if (!w.endsWith("ss") && w.endsWith("s")) w = w.slice(0, -1);

  // Step 1b: -eed, -ed, -ing.
  if (w.endsWith("eed")) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
  } else {
    const suffix = w.endsWith("ed") ? "ed" : w.endsWith("ing") ? "ing" : null;
    if (suffix && hasVowel(w.slice(0, -suffix.length))) {
      w = w.slice(0, -suffix.length);
      if (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz")) w += "e";
      else if (endsDouble(w) && !"lsz".includes(w[w.length - 1]!)) w = w.slice(0, -1);
      else if (measure(w) === 1 && endsCvc(w)) w += "e";
    }
  }

  // Step 1c: y after a vowel-bearing stem becomes i.
  if (w.endsWith("y") && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;

  w = replaceFirst(w, STEP2_SORTED, (s) => measure(s) > 0);
  w = replaceFirst(w, STEP3, (s) => measure(s) > 0);

  // Step 4: -ion only after s or t.
  for (const suffix of STEP4) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, w.length - suffix.length);
    if (measure(stem) > 1 && (suffix !== "ion" || stem.endsWith("s") || stem.endsWith("t"))) w = stem;
    break;
  }

  // Step 5: a final -e, and -ll.
  if (w.endsWith("e")) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) w = stem;
  }
  if (w.endsWith("ll") && measure(w) > 1) w = w.slice(0, -1);
  return w;
}
