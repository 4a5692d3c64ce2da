/**
 * How deep a paragraph's emphasis and brackets could nest, and the paragraph with that
 * markup escaped. Thousands of nested emphasis levels or link labels overflow the stack of
 * every tree walk after the parser (mdast to hast, sanitize, React). Code spans are skipped:
 * markup inside them is literal already.
 */

export interface InlineDepth {
  /** How deep emphasis could nest (strong counts as one level per two markers). */
  emphasis: number;
  /** The most `[` open at once. */
  brackets: number;
}

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const UNICODE_PUNCTUATION = /[\p{P}\p{S}]/u;
const UNICODE_SPACE = /[\s\p{Zs}]/u;

const isSpace = (c: string | undefined) => c === undefined || UNICODE_SPACE.test(c);
const isPunctuation = (c: string | undefined) => c !== undefined && (ASCII_PUNCTUATION.test(c) || UNICODE_PUNCTUATION.test(c));

/** Start and end (exclusive) of each code span: a backtick run closed by the next run of the same length. */
function codeSpans(text: string): [number, number][] {
  const runs: { at: number; len: number }[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\" && text[i + 1] === "`") {
      i++;
      continue;
    }
    if (text[i] !== "`") continue;
    let j = i;
    while (text[j] === "`") j++;
    runs.push({ at: i, len: j - i });
    i = j - 1;
  }
  // Each run's next run of the same length, found in one pass from the end.
  const nextSame: number[] = new Array<number>(runs.length).fill(-1);
  const seen = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k--) {
    const len = runs[k]!.len;
    nextSame[k] = seen.get(len) ?? -1;
    seen.set(len, k);
  }
  const spans: [number, number][] = [];
  for (let k = 0; k < runs.length;) {
    const close = nextSame[k]!;
    if (close < 0) {
      k++;
      continue;
    }
    const open = runs[k]!;
    const end = runs[close]!;
    spans.push([open.at, end.at + end.len]);
    k = close + 1;
  }
  return spans;
}

/** Calls `visit` for every character outside code spans that a backslash does not escape. */
function forEachMarkupChar(text: string, visit: (i: number) => void): void {
  const spans = codeSpans(text);
  let s = 0;
  for (let i = 0; i < text.length; i++) {
    const span = spans[s];
    if (span && i === span[0]) {
      i = span[1] - 1;
      s++;
      continue;
    }
    if (text[i] === "\\" && ASCII_PUNCTUATION.test(text[i + 1] ?? "")) {
      i++;
      continue;
    }
    visit(i);
  }
}

export function inlineDepth(text: string): InlineDepth {
  // Matched pairs nest (or follow each other); unmatched markers are literal and nest nothing.
  // Each pair adds +levels at its start and -levels at its end; the deepest sum is the depth.
  const emphasis: [number, number][] = [];
  const brackets: [number, number][] = [];
  const open: { at: number; levels: number }[] = [];
  const byChar: Record<string, number[]> = { "*": [], _: [], "~": [] };
  const labels: number[] = [];
  let skipTo = -1;
  forEachMarkupChar(text, (i) => {
    if (i < skipTo) return;
    const ch = text[i]!;
    if (ch === "[") labels.push(i);
    else if (ch === "]") {
      const start = labels.pop();
      if (start !== undefined) brackets.push([start, 1], [i, -1]);
    }
    const mine = byChar[ch];
    if (!mine) return;
    let j = i;
    while (text[j] === ch) j++;
    skipTo = j;
    const before = text[i - 1];
    const after = text[j];
    // CommonMark's flanking rules decide whether a run may open or close.
    const left = !isSpace(after) && (!isPunctuation(after) || isSpace(before) || isPunctuation(before));
    const right = !isSpace(before) && (!isPunctuation(before) || isSpace(after) || isPunctuation(after));
    const canOpen = ch === "_" ? left && (!right || isPunctuation(before)) : left;
    const canClose = ch === "_" ? right && (!left || isPunctuation(after)) : right;
    const levels = ch === "~" ? (j - i <= 2 ? 1 : 0) : Math.ceil((j - i) / 2);
    const opener = mine.at(-1);
    if (canClose && opener !== undefined) {
      // The closer takes its opener; runs opened after it stay literal.
      const o = open[opener]!;
      const pair = Math.min(o.levels, levels);
      emphasis.push([o.at, pair], [i, -pair]);
      open.length = opener;
      for (const list of Object.values(byChar)) while (list.length && list.at(-1)! >= opener) list.pop();
      return;
    }
    if (canOpen) {
      mine.push(open.length);
      open.push({ at: i, levels });
    }
  });
  return { emphasis: deepest(emphasis), brackets: deepest(brackets) };
}

/** The largest running sum of (position, change) steps taken in position order. */
function deepest(steps: [number, number][]): number {
  steps.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let depth = 0;
  let max = 0;
  for (const [, change] of steps) {
    depth += change;
    max = Math.max(max, depth);
  }
  return max;
}

/** The text with each listed markup character outside code spans escaped, so it renders literally. */
export function escapeMarkup(text: string, chars: ReadonlySet<string>): string {
  const at: number[] = [];
  forEachMarkupChar(text, (i) => {
    if (chars.has(text[i]!)) at.push(i);
  });
  if (at.length === 0) return text;
  let out = "";
  let from = 0;
  for (const i of at) {
    out += text.slice(from, i) + "\\";
    from = i;
  }
  return out + text.slice(from);
}

export const EMPHASIS_CHARS: ReadonlySet<string> = new Set(["*", "_", "~"]);
export const BRACKET_CHARS: ReadonlySet<string> = new Set(["[", "]"]);
export const PIPE_CHARS: ReadonlySet<string> = new Set(["|"]);

/** Unescaped `|` outside code spans: cells of a table row. GFM splits cells on pipes even in code spans, so those count too. */
export function tableCells(row: string): number {
  let pipes = 0;
  for (let i = 0; i < row.length; i++) {
    if (row[i] === "\\") i++;
    else if (row[i] === "|") pipes++;
  }
  const t = row.trim();
  const lead = t.startsWith("|") ? 1 : 0;
  const trail = t.length > 1 && t.endsWith("|") && !t.endsWith("\\|") ? 1 : 0;
  return pipes - lead - trail + 1;
}
