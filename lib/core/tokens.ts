import { getEncoding, type Tiktoken } from "js-tiktoken";

/**
 * Token counts with a real BPE tokenizer: js-tiktoken's cl100k_base, the encoding of
 * the GPT-4 family, as a stand-in for the agent model's own (whose tokenizer is not
 * public). Loaded once per process.
 */
export const TOKENIZER_NAME = "cl100k_base (js-tiktoken)";

let enc: Tiktoken | null = null;

/**
 * Counts of recently seen long texts. The same files are counted again and again (every
 * loader run over one knowledge base), and BPE costs about 0.3 ms per KB.
 */
const memo = new Map<string, number>();
const MEMO_MAX = 4000;
const MEMO_MIN_LENGTH = 512;

/**
 * Runs that cl100k_base's pre-tokenizer keeps as one piece (letters, punctuation, whitespace)
 * when they are this long. js-tiktoken merges a piece in quadratic time: 4,000 letters in a
 * row take about a second and 20,000 about 25 s, which a pasted blob or hostile text would
 * spend on every keystroke. Such runs are counted in slices of LONG_RUN_SLICE code points,
 * which differs from the exact count by at most a token per slice; real prose never has them.
 */
export const LONG_RUN = 256;
const LONG_RUN_SLICE = 128;
const LONG_RUN_RE = new RegExp(`\\p{L}{${LONG_RUN},}|[^\\s\\p{L}\\p{N}]{${LONG_RUN},}|\\s{${LONG_RUN},}`, "gu");

function encodeLength(text: string): number {
  enc ??= getEncoding("cl100k_base");
  // Special-token texts (e.g. "<|endoftext|>") are counted as the text people typed, not refused.
  return enc.encode(text, [], []).length;
}

function countWithLongRunsSliced(text: string): number {
  let total = 0;
  let at = 0;
  for (const m of text.matchAll(LONG_RUN_RE)) {
    if (m.index > at) total += encodeLength(text.slice(at, m.index));
    const points = Array.from(m[0]);
    for (let i = 0; i < points.length; i += LONG_RUN_SLICE) total += encodeLength(points.slice(i, i + LONG_RUN_SLICE).join(""));
    at = m.index + m[0].length;
  }
  if (at === 0) return encodeLength(text);
  return at < text.length ? total + encodeLength(text.slice(at)) : total;
}

export function countTokens(text: string): number {
  if (text.length >= MEMO_MIN_LENGTH) {
    const hit = memo.get(text);
    if (hit !== undefined) return hit;
  }
  const n = text.length >= LONG_RUN ? countWithLongRunsSliced(text) : encodeLength(text);
  if (text.length >= MEMO_MIN_LENGTH) {
    if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!);
    memo.set(text, n);
  }
  return n;
}

/** For benchmarks that measure the uncached cost. */
export function clearTokenMemo(): void {
  memo.clear();
}
