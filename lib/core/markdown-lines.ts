/**
 * The start of a document as lines, read without copying more of it than is kept: the
 * source may be tens of megabytes, and only its first bytes are ever rendered.
 */

/** UTF-8 length of text[from, to) without encoding a copy (the source may be tens of megabytes). */
export function utf8Length(text: string, from = 0, to = text.length): number {
  if (typeof Buffer !== "undefined" && from === 0 && to === text.length) return Buffer.byteLength(text, "utf8");
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

export interface SourceLine {
  line: string;
  /** UTF-8 bytes, newline included. */
  bytes: number;
}

/** The source's first lines within `maxBytes`; a first line longer than that is cut inside. */
export function leadingLines(text: string, maxBytes: number): SourceLine[] {
  const out: SourceLine[] = [];
  let total = 0;
  let start = 0;
  for (;;) {
    const nl = text.indexOf("\n", start);
    const end = nl < 0 ? text.length : nl;
    const bytes = utf8Length(text, start, end) + (nl < 0 ? 0 : 1);
    if (total + bytes > maxBytes) {
      if (out.length === 0) out.push(cutLine(text.slice(start, end), maxBytes));
      return out;
    }
    total += bytes;
    out.push({ line: text.slice(start, end), bytes });
    if (nl < 0) return out;
    start = nl + 1;
  }
}

/** The longest start of `line` within `bytes`, not splitting a surrogate pair. */
export function cutLine(line: string, bytes: number): SourceLine {
  let n = 0;
  let i = 0;
  while (i < line.length) {
    const width = line.charCodeAt(i) >= 0xd800 && line.charCodeAt(i) <= 0xdbff ? 2 : 1;
    const size = utf8Length(line, i, i + width);
    if (n + size > bytes) break;
    n += size;
    i += width;
  }
  return { line: line.slice(0, i), bytes: n };
}
