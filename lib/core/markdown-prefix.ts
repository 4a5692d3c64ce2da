/**
 * The container markers at the start of a markdown line (`>`, `-`, `+`, `*`, `1.`, `1)`) and
 * the whitespace between them, read without parsing, with the point where the line passes a
 * nesting limit.
 */
export interface Marker {
  /** Column where the marker starts, its length, and the column where its content starts. */
  col: number;
  len: number;
  content: number;
  kind: "quote" | "bullet" | "ordered";
  /** For `1.` / `1)`: the number. */
  ordinal?: number;
}

export interface Prefix {
  /** Index in the line where its content starts. */
  end: number;
  /** Column where its content starts. */
  col: number;
  markers: Marker[];
  quotes: number;
  items: number;
  /** Columns of whitespace in the prefix. */
  ws: number;
  /** Whether the quote markers come first, each after at most three spaces (so they surely are blockquotes). */
  plainQuotes: boolean;
  /** Index where nesting beyond the limits starts (-1: within them). */
  cut: number;
}

export function readPrefix(line: string, maxDepth: number, maxIndent: number): Prefix {
  const p: Prefix = { end: 0, col: 0, markers: [], quotes: 0, items: 0, ws: 0, plainQuotes: true, cut: -1 };
  let i = 0;
  let gap = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === " " || c === "\t") {
      const w = c === "\t" ? 4 - (p.col % 4) : 1;
      if (p.ws + w > maxIndent) {
        p.cut = i;
        break;
      }
      p.ws += w;
      gap += w;
      p.col += w;
      i++;
      continue;
    }
    const marker = markerAt(line, i, p.col);
    if (!marker) break;
    if (p.markers.length >= maxDepth) {
      p.cut = i;
      break;
    }
    if (marker.kind === "quote") {
      if (p.items > 0 || gap > (p.quotes > 0 ? 4 : 3)) p.plainQuotes = false;
      p.quotes++;
    } else p.items++;
    p.markers.push(marker);
    i += marker.len;
    p.col += marker.len;
    gap = 0;
  }
  p.end = i;
  return p;
}

function markerAt(line: string, i: number, col: number): Marker | null {
  const c = line[i];
  const spaceAfter = (j: number) => j >= line.length || line[j] === " " || line[j] === "\t";
  if (c === ">") return { col, len: 1, content: col + 2, kind: "quote" };
  if ((c === "-" || c === "+" || c === "*") && spaceAfter(i + 1)) return { col, len: 1, content: col + 2, kind: "bullet" };
  let j = i;
  while (j < line.length && j - i < 10 && line.charCodeAt(j) >= 48 && line.charCodeAt(j) <= 57) j++;
  if (j > i && j - i <= 9 && (line[j] === "." || line[j] === ")") && spaceAfter(j + 1)) {
    return { col, len: j + 1 - i, content: col + (j - i) + 2, kind: "ordered", ordinal: Number(line.slice(i, j)) };
  }
  return null;
}
