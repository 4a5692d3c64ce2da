import { countTokens } from "../core/tokens";

/** countTokens memoises texts from this length on (lib/core/tokens.ts); shorter ones are counted whole. */
const CHUNK_MIN = 512;

/**
 * countTokens(text), exactly, counted chunk by chunk: the editor validates on every
 * keystroke, countTokens memoises texts of 512+ characters, and after an edit every chunk
 * but the edited one is a text it has already counted. A ~2,000-token packet then costs
 * one chunk's encoding per keystroke instead of the whole packet's.
 *
 * Exact because BPE never merges across the pieces cl100k_base's pre-tokenizer cuts, and
 * the cuts here fall between pieces:
 * - after a newline followed by a non-space character: a newline can only end a piece
 *   (`[\r\n]*` and `\s*[\r\n]+` end with it; the letter piece's prefix excludes \r\n);
 * - between "<|" and a letter: the punctuation run ends there and the letters start a
 *   piece. This also keeps "<|endoftext|>" and the other special-token texts from reaching
 *   the encoder whole, which throws on them; they count as the ordinary text they are.
 */
export function packetTokens(text: string): number {
  if (!text.includes("<|")) return chunked(text);
  let total = 0;
  let start = 0;
  for (const m of text.matchAll(/<\|(?=[\p{L}])/gu)) {
    const cut = m.index + 2;
    total += chunked(text.slice(start, cut));
    start = cut;
  }
  return total + chunked(text.slice(start));
}

function chunked(text: string): number {
  if (text.length < 2 * CHUNK_MIN) return text ? countTokens(text) : 0;
  let total = 0;
  let start = 0;
  let nl = text.indexOf("\n", start + CHUNK_MIN - 1);
  while (nl !== -1 && nl + 1 < text.length && text.length - (nl + 1) >= CHUNK_MIN) {
    if (/\S/.test(text[nl + 1]!)) {
      total += countTokens(text.slice(start, nl + 1));
      start = nl + 1;
      nl = text.indexOf("\n", start + CHUNK_MIN - 1);
    } else {
      nl = text.indexOf("\n", nl + 1);
    }
  }
  return total + countTokens(text.slice(start));
}
