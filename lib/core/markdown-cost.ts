/**
 * What rendering markdown costs (react-markdown: micromark with GFM, mdast, hast, sanitize,
 * React), in microseconds on a loaded two-core machine, measured per construct. Most costs
 * are linear: per byte, line, list item, table cell, container a line sits in, and ASCII
 * punctuation character (every one may start a construct the parser tries). One is
 * quadratic within a paragraph: micromark walks back over the paragraph's events for each
 * closing emphasis run, each `]`, and each construct that splits its text (escapes, code
 * spans, entities, HTML), so a paragraph's cost grows with the square of those tokens.
 */
export const COST = {
  byte: 2,
  line: 150,
  listItem: 250,
  tableCell: 200,
  container: 25,
  punctuation: 8,
  /** Times the square of a paragraph's weighted tokens. */
  tokenSquared: 0.002,
} as const;

/** Emphasis runs cost the most: each closer walks back over every event before it. */
const RUN_WEIGHT = 6;
const BRACKET_WEIGHT = 4;

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;

export interface LineCost {
  /** Linear cost of the line. */
  linear: number;
  /** Weighted tokens it adds to its paragraph. */
  tokens: number;
}

/**
 * A line's cost. Every unescaped `|` is charged as a table cell, table or not: a fence the
 * caller misread could hide a table from it, and a pipe in prose is rare.
 */
export function lineCost(text: string, bytes: number, parts: { items: number; containers: number }): LineCost {
  let punctuation = 0;
  let tokens = 0;
  let cells = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (!ASCII_PUNCTUATION.test(c)) continue;
    punctuation++;
    if (c === "\\" && i + 1 < text.length && ASCII_PUNCTUATION.test(text[i + 1]!)) {
      // Escapes side by side split the text once, however many there are.
      punctuation++;
      if (text[i - 2] !== "\\") tokens++;
      i++;
    } else if (c === "*" || c === "_" || c === "~" || c === "`") {
      let j = i;
      while (text[j + 1] === c) j++;
      punctuation += j - i;
      tokens += c === "`" ? 1 : RUN_WEIGHT;
      i = j;
    } else if (c === "[" || c === "]") tokens += BRACKET_WEIGHT;
    else if (c === "&" || c === "<" || c === "!") tokens++;
    else if (c === "|") cells++;
  }
  const linear = COST.byte * bytes + COST.line + COST.listItem * parts.items + COST.tableCell * cells + COST.container * parts.containers + COST.punctuation * punctuation;
  return { linear, tokens };
}

/** What adding `tokens` to a paragraph that holds `before` costs. */
export function paragraphCost(before: number, tokens: number): number {
  return COST.tokenSquared * ((before + tokens) ** 2 - before ** 2);
}
