import { matchedKeywords } from "./keywords";

export const MAX_EXCERPTS_PER_FILE = 2;
export const MAX_EXCERPT_LINES = 25;

export interface Excerpt {
  /** 1-based first line in the file. */
  startLine: number;
  lines: string[];
  matched: string[];
}

/** Lines after a leading `---` frontmatter block, with the offset they start at. */
function stripFrontmatter(lines: string[]): number {
  if (lines[0]?.trim() !== "---") return 0;
  const end = lines.findIndex((l, i) => i > 0 && l.trim() === "---");
  return end === -1 ? 0 : end + 1;
}

interface Block {
  start: number;
  end: number; // exclusive
}

/**
 * Step 7: at most two verbatim excerpts of at most 25 lines, from the blocks that carry
 * the most prompt keywords. Frontmatter is skipped, and so are headings with nothing
 * under them; a block keeps the heading directly above it.
 */
export function extractExcerpts(text: string, tokens: string[]): Excerpt[] {
  const lines = text.split(/\r?\n/);
  const from = stripFrontmatter(lines);
  const blocks: Block[] = [];
  let i = from;
  while (i < lines.length) {
    if (lines[i]!.trim() === "") {
      i++;
      continue;
    }
    const start = i;
    // A heading starts a block; the block runs to the next blank line or heading.
    i++;
    while (i < lines.length && lines[i]!.trim() !== "" && !/^#{1,6}\s/.test(lines[i]!)) i++;
    // A heading immediately followed by a blank line joins the next paragraph.
    if (/^#{1,6}\s/.test(lines[start]!) && i - start === 1) {
      let j = i;
      while (j < lines.length && lines[j]!.trim() === "") j++;
      if (j < lines.length && !/^#{1,6}\s/.test(lines[j]!)) {
        i = j + 1;
        while (i < lines.length && lines[i]!.trim() !== "" && !/^#{1,6}\s/.test(lines[i]!)) i++;
      } else continue; // an empty heading: nothing under it
    }
    blocks.push({ start, end: i });
  }
  const scored = blocks
    .map((b, order) => {
      const body = lines.slice(b.start, b.end);
      const m = matchedKeywords(tokens, body.join("\n"));
      return { b, order, matched: m, headingOnly: body.every((l) => /^#{1,6}\s/.test(l) || l.trim() === "") };
    })
    .filter((x) => !x.headingOnly);
  const withHits = scored.filter((x) => x.matched.length > 0).sort((a, b) => b.matched.length - a.matched.length || a.order - b.order);
  const chosen = (withHits.length > 0 ? withHits : scored.slice(0, 1)).slice(0, MAX_EXCERPTS_PER_FILE).sort((a, b) => a.order - b.order);
  return chosen.map(({ b, matched }) => {
    const body = lines.slice(b.start, Math.min(b.end, b.start + MAX_EXCERPT_LINES));
    while (body.length && body[body.length - 1]!.trim() === "") body.pop();
    return { startLine: b.start + 1, lines: body, matched };
  });
}
