import { COST, lineCost, paragraphCost } from "./markdown-cost";
import { BRACKET_CHARS, EMPHASIS_CHARS, PIPE_CHARS, escapeMarkup, inlineDepth, tableCells } from "./markdown-inline";
import { cutLine, leadingLines, utf8Length, type SourceLine } from "./markdown-lines";
import { readPrefix, type Prefix } from "./markdown-prefix";

/**
 * Repository markdown bounded before it is parsed for a page. A server render blocks the
 * event loop, and the parser under react-markdown (micromark) recurses once per nesting
 * level in every tree walk after it and spends 10-300 µs on each line, list item, table cell
 * and punctuation mark, quadratically more in a paragraph full of emphasis, brackets or
 * escapes (see markdown-cost.ts). So:
 * - container nesting and indentation past the limits become text (on every line, code
 *   included, with an invisible character, so code looks the same);
 * - emphasis or brackets nested past the limit in a paragraph are escaped, tables wider
 *   than the limit are shown as text, and setext headings past the limit are kept as text;
 * - the document is cut at the first line past the byte cap or the render budget.
 * An ordinary document comes out unchanged.
 */
export interface MarkdownLimits {
  /** UTF-8 bytes read at most; the rest is left out at a line end. */
  maxBytes: number;
  /** Estimated render time (µs on a loaded two-core machine, see markdown-cost.ts) the shown part may cost. */
  budget: number;
  /** Container markers (`>`, list markers) on one line, and emphasis or bracket nesting in a paragraph. */
  maxDepth: number;
  /** Columns of leading whitespace on one line. */
  maxIndent: number;
  /** Cells in a table row; a wider table is shown as text. */
  maxColumns: number;
  /** Setext headings (a line of `=` or `-` under text); each costs a pass over the document. */
  maxSetext: number;
}

export const MARKDOWN_LIMITS: MarkdownLimits = {
  maxBytes: 128 * 1024,
  budget: 300_000,
  maxDepth: 16,
  maxIndent: 64,
  maxColumns: 64,
  maxSetext: 64,
};

/** Nesting in fenced code past this ends the document there (escaping would show in code; a misread fence could be prose). */
const CODE_DEPTH = 256;

export interface BoundedMarkdown {
  text: string;
  /** UTF-8 size of the source. */
  totalBytes: number;
  /** Bytes of the source left out at its end (0: all of it is shown). */
  truncatedBytes: number;
  /** Lines whose nesting or indentation past the limits became text. */
  flattened: number;
  /** Paragraphs, tables and setext underlines whose markup was escaped to show as text. */
  literal: number;
}

/** Written where a line's nesting is cut: not whitespace to the parser, so what follows is text; invisible on the page. */
const CUT = "\u200b";

const FENCE_OPEN = /^(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const SETEXT = /^(=+|-+)[ \t]*$/;
const ATX = /^#{1,6}([ \t]|$)/;
const DELIMITER_ROW = /^\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const BLOCK_START = /^(>|#{1,6}([ \t]|$)|`{3,}|~{3,}|[-+*]([ \t]|$)|\d{1,9}[.)]([ \t]|$))/;

interface Line {
  head: string;
  body: string;
  cr: string;
  /** Source bytes, newline included. */
  bytes: number;
  items: number;
  /** Containers the line may sit in (over-estimated). */
  containers: number;
  quotes: number;
  /** Nesting past the limits was cut on this line. */
  flattened: boolean;
  /** The paragraph (or code block) it belongs to, for the quadratic cost; -1: none. */
  block: number;
  /** The document is cut before this line. */
  stop?: boolean;
}

/** Reads a document line by line, flattening, escaping and grouping lines into paragraphs. */
class Bounder {
  readonly lines: Line[] = [];
  flattened = 0;
  literal = 0;
  /** Content columns of list items that may be open (closed only after a blank line): over-estimates nesting. */
  private mayBeOpen: number[] = [];
  /**
   * List items surely open (any line indented less closes them): under-estimates, so a line
   * is taken for a new item, and a new paragraph, only when the parser surely agrees.
   */
  private surelyOpen: { col: number; content: number; kind: string }[] = [];
  private prev = { blank: true, quotes: 0 };
  /**
   * A fenced code block opened at column 0 outside any container: only a closing fence ends
   * it. Fences elsewhere are not tracked, so their lines count as prose, which is safe.
   */
  private fence: { ch: string; len: number } | null = null;
  private block: Line[] = [];
  private blockId = 0;
  private blockQuotes = 0;
  private inCode = false;
  private table: { quotes: number; cols: number; literal: boolean } | null = null;
  private setext = 0;

  constructor(private readonly limits: MarkdownLimits) {}

  add(raw: string, bytes: number): void {
    const cr = raw.endsWith("\r") ? "\r" : "";
    let text = cr ? raw.slice(0, -1) : raw;
    const prefix = readPrefix(text, this.limits.maxDepth, this.limits.maxIndent);
    if (prefix.cut >= 0) {
      text = text.slice(0, prefix.cut) + CUT + text.slice(prefix.cut);
      this.flattened++;
    }
    const body = text.slice(prefix.end);
    const blank = body.trim() === "";
    const newItem = this.trackItems(prefix, blank);
    const line: Line = {
      head: text.slice(0, prefix.end),
      body,
      cr,
      bytes,
      items: prefix.items,
      containers: prefix.quotes + this.mayBeOpen.length,
      quotes: prefix.quotes,
      flattened: prefix.cut >= 0,
      block: -1,
    };
    const previous = this.lines.at(-1);
    this.lines.push(line);
    const prevQuotes = this.prev.quotes;
    this.prev = { blank, quotes: prefix.quotes };

    if (this.fence) {
      const close = FENCE_CLOSE.exec(text)?.[1];
      if (close && close[0] === this.fence.ch && close.length >= this.fence.len) {
        this.endBlock();
        this.fence = null;
      } else if (blank) this.endBlock();
      else this.join(line, true);
      return;
    }
    const open = prefix.end === 0 ? FENCE_OPEN.exec(text) : null;
    if (open?.[1] && !(open[1][0] === "`" && open[2]?.includes("`"))) {
      this.endBlock();
      this.table = null;
      this.fence = { ch: open[1][0]!, len: open[1].length };
      return;
    }
    if (blank) {
      this.endBlock();
      this.table = null;
      return;
    }
    if (this.table && prefix.quotes === this.table.quotes && prefix.items === 0 && !BLOCK_START.test(body)) return this.tableRow(line);
    this.table = null;
    if (previous && this.startsTable(previous, line, prefix)) return;
    if (SETEXT.test(body) && this.block.length > 0 && prefix.items === 0) {
      if (++this.setext <= this.limits.maxSetext) return this.endBlock();
      line.body = "\\" + body;
      this.literal++;
      return this.join(line);
    }
    // A heading, a new item or a deeper blockquote surely starts a paragraph of its own; any
    // other line may continue the one before, so it is counted with it.
    const base = this.surelyOpen.at(-1)?.content ?? prefix.markers.filter((m) => m.kind === "quote").at(-1)?.content ?? 0;
    if (ATX.test(body) && prefix.col - base <= 3) {
      this.endBlock();
      this.join(line);
      return this.endBlock();
    }
    if (newItem || (prefix.plainQuotes && prefix.quotes > prevQuotes && prefix.quotes > this.blockQuotes)) this.endBlock();
    this.join(line);
  }

  private join(line: Line, code = false): void {
    if (this.block.length === 0) {
      this.blockId++;
      this.blockQuotes = line.quotes;
      this.inCode = code;
    }
    line.block = this.blockId;
    this.block.push(line);
  }

  /** Updates the open list items; true when the line surely starts a new item with content. */
  private trackItems(prefix: Prefix, blank: boolean): boolean {
    const items = prefix.markers.filter((m) => m.kind !== "quote");
    const quotes = prefix.markers.filter((m) => m.kind === "quote");
    if (prefix.quotes !== this.prev.quotes) this.surelyOpen = [];
    const first = items[0];
    if (first) {
      this.mayBeOpen = this.mayBeOpen.filter((c) => c <= first.col);
      this.mayBeOpen.push(...items.map((m) => m.content));
    } else if (!blank && this.prev.blank) {
      this.mayBeOpen = this.mayBeOpen.filter((c) => c <= prefix.col);
    }
    if (blank) return false;
    const at = first ? first.col : prefix.col;
    const closed = this.surelyOpen.filter((o) => o.content > at);
    this.surelyOpen = this.surelyOpen.filter((o) => o.content <= at);
    if (!first) return false;
    const base = this.surelyOpen.at(-1)?.content ?? quotes.at(-1)?.content ?? 0;
    const tight = items.every((m, k) => k === 0 || m.col - items[k - 1]!.content <= 3);
    if (first.col - base > 3 || !tight || !prefix.plainQuotes) return false;
    // An ordered item interrupts a paragraph only as number 1 or beside an earlier item of its list.
    const sibling = closed.some((o) => o.col === first.col && o.kind === first.kind);
    this.surelyOpen.push(...items.map((m) => ({ col: m.col, content: m.content, kind: m.kind })));
    return first.kind === "bullet" || first.ordinal === 1 || sibling;
  }

  private startsTable(header: Line, row: Line, prefix: Prefix): boolean {
    if (!DELIMITER_ROW.test(row.body) || !row.body.includes("|") || this.block.at(-1) !== header) return false;
    const cols = tableCells(row.body);
    if (tableCells(header.body) !== cols) return false;
    this.block.pop();
    this.endBlock();
    const literal = cols > this.limits.maxColumns;
    this.table = { quotes: prefix.quotes, cols, literal };
    if (literal) {
      // Shown as text: header, delimiter row and rows become one paragraph.
      this.literal++;
      for (const l of [header, row]) this.tableRow(l);
    } else this.checkDepth([header]);
    return true;
  }

  private tableRow(row: Line): void {
    if (this.table!.literal) {
      row.body = escapeMarkup(row.body, PIPE_CHARS);
      return this.join(row);
    }
    // Each cell is its own inline content: the row's nesting bounds theirs.
    this.checkDepth([row]);
  }

  private endBlock(): void {
    if (this.block.length) {
      if (this.inCode) this.checkCodeDepth(this.block);
      else this.checkDepth(this.block);
    }
    this.block = [];
  }

  /** Escapes emphasis or brackets in a paragraph where they nest past the limit. */
  private checkDepth(block: Line[]): void {
    const text = block.map((l) => l.body).join("\n");
    const depth = inlineDepth(text);
    const chars = new Set<string>();
    if (depth.emphasis > this.limits.maxDepth) for (const c of EMPHASIS_CHARS) chars.add(c);
    if (depth.brackets > this.limits.maxDepth) for (const c of BRACKET_CHARS) chars.add(c);
    if (chars.size === 0) return;
    const escaped = escapeMarkup(text, chars).split("\n");
    block.forEach((l, k) => (l.body = escaped[k]!));
    this.literal++;
  }

  /** Code is not escaped (a backslash would show): nesting a misread fence would overflow on ends the document there. */
  private checkCodeDepth(block: Line[]): void {
    const depth = inlineDepth(block.map((l) => l.body).join("\n"));
    if (depth.emphasis > CODE_DEPTH || depth.brackets > CODE_DEPTH) block[0]!.stop = true;
  }

  finish(): void {
    this.endBlock();
  }
}

interface Pass {
  bounder: Bounder;
  /** Lines within the budget. */
  kept: number;
  keptBytes: number;
  /** Estimated cost of the first line. */
  firstCost: number;
}

function pass(source: SourceLine[], limits: MarkdownLimits): Pass {
  const bounder = new Bounder(limits);
  // Lines past what their bytes and line count alone would cost are never shown: not read.
  let floor = 0;
  for (const s of source) {
    floor += COST.line + COST.byte * s.bytes;
    if (floor > limits.budget) break;
    bounder.add(s.line, s.bytes);
  }
  bounder.finish();
  let spent = 0;
  let kept = 0;
  let keptBytes = 0;
  let firstCost = 0;
  const tokens = new Map<number, number>();
  for (const line of bounder.lines) {
    const shown = line.head + line.body;
    // Escapes and cuts make the shown line longer than its source: the cost is of what is parsed.
    const cost = lineCost(shown, utf8Length(shown) + 1, line);
    const before = tokens.get(line.block) ?? 0;
    spent += cost.linear + (line.block >= 0 ? paragraphCost(before, cost.tokens) : 0);
    if (kept === 0) firstCost = spent;
    if (line.stop || spent > limits.budget) break;
    tokens.set(line.block, before + cost.tokens);
    kept++;
    keptBytes += line.bytes;
  }
  return { bounder, kept, keptBytes, firstCost };
}

/**
 * Not even the first line fits (one huge line): the longest start of it that does, to within
 * a few percent, searched from the estimate that its cost grows with the square of its length.
 */
function firstLineWithin(line: string, bytes: number, cost: number, limits: MarkdownLimits): Pass {
  let fits = 0;
  let fails = bytes;
  let best: Pass | null = null;
  const attempt = (size: number) => {
    const p = pass([cutLine(line, size)], limits);
    if (p.kept > 0) {
      fits = size;
      best = p;
    } else fails = size;
  };
  // From the estimate, double while it fits, then halve the gap: a few passes over short cuts.
  attempt(Math.floor(bytes * Math.sqrt(limits.budget / Math.max(cost, limits.budget)) * 0.9));
  while (fits > 0 && fits * 2 < fails) attempt(fits * 2);
  while (fails - fits > Math.max(256, fails / 8)) attempt(Math.floor((fits + fails) / 2));
  return best ?? pass([], limits);
}

export function boundMarkdown(text: string, opts: Partial<MarkdownLimits> = {}): BoundedMarkdown {
  const limits = { ...MARKDOWN_LIMITS, ...opts };
  const totalBytes = utf8Length(text);
  const source = leadingLines(text, limits.maxBytes);
  let result = pass(source, limits);
  const first = source[0];
  if (result.kept === 0 && first) result = firstLineWithin(first.line, first.bytes, result.firstCost, limits);
  const shown = result.bounder.lines.slice(0, result.kept);
  return {
    text: shown.map((l) => l.head + l.body + l.cr).join("\n"),
    totalBytes,
    truncatedBytes: totalBytes - result.keptBytes,
    flattened: shown.filter((l) => l.flattened).length,
    literal: result.bounder.literal,
  };
}

const KiB = 1024;
const MiB = 1024 * KiB;

function size(bytes: number): string {
  if (bytes < KiB) return `${bytes} bytes`;
  if (bytes < MiB) return `${Math.round(bytes / KiB)} KB`;
  return `${(bytes / MiB).toFixed(bytes < 10 * MiB ? 1 : 0)} MB`;
}

/** What a reader is told about a bounded document: one sentence per bound that changed it. */
export function boundsNotices(b: BoundedMarkdown, limits: MarkdownLimits = MARKDOWN_LIMITS): string[] {
  const out: string[] = [];
  if (b.truncatedBytes > 0) out.push(`Showing the first ${size(b.totalBytes - b.truncatedBytes)} of ${size(b.totalBytes)}: the rest is too long to render here.`);
  if (b.flattened > 0) out.push(`Nesting deeper than ${limits.maxDepth} levels or ${limits.maxIndent} columns is flattened.`);
  if (b.literal > 0) out.push(`Markup nested deeper than ${limits.maxDepth} levels, tables wider than ${limits.maxColumns} columns and setext headings past ${limits.maxSetext} are shown as text.`);
  return out;
}
