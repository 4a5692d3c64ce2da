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

export function countTokens(text: string): number {
  if (text.length >= MEMO_MIN_LENGTH) {
    const hit = memo.get(text);
    if (hit !== undefined) return hit;
  }
  enc ??= getEncoding("cl100k_base");
  // Special-token texts (e.g. "<|endoftext|>") are counted as the text people typed, not refused.
  const n = enc.encode(text, [], []).length;
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
