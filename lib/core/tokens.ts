import { getEncoding, type Tiktoken } from "js-tiktoken";

/**
 * Token counts with a real BPE tokenizer: js-tiktoken's cl100k_base, the encoding of
 * the GPT-4 family, as a stand-in for the agent model's own (whose tokenizer is not
 * public). Loaded once per process.
 */
export const TOKENIZER_NAME = "cl100k_base (js-tiktoken)";

let enc: Tiktoken | null = null;

export function countTokens(text: string): number {
  enc ??= getEncoding("cl100k_base");
  return enc.encode(text).length;
}
