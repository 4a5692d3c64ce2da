/**
 * The markdown as lines with their offsets in the original text, so that parsing (which
 * wants LF text) and validation (which reports offsets into what the user typed, CRLF
 * included) share one scan.
 */
export interface Line {
  /** Position in the line list. */
  index: number;
  /** Offset of the first character. */
  start: number;
  /** Offset just past the last character, before the line break. */
  end: number;
  text: string;
  /** Inside a fenced code block (fence lines included): never a heading or a label. */
  fenced: boolean;
  /** This line opens or closes a fenced code block. */
  fence: "open" | "close" | null;
}

/** A line that opens (or closes) a fenced code block; also read by the renderer. */
export const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;

export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let fence: string | null = null;
  let start = 0;
  for (;;) {
    const nl = text.indexOf("\n", start);
    const stop = nl === -1 ? text.length : nl;
    const end = stop > start && text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop;
    const t = text.slice(start, end);
    const m = FENCE_RE.exec(t);
    let fenced = fence !== null;
    let role: Line["fence"] = null;
    if (m) {
      const marker = m[1]!;
      if (fence === null) {
        fence = marker;
        fenced = true;
        role = "open";
      } else if (marker[0] === fence[0] && marker.length >= fence.length && t.trim() === marker) {
        fence = null;
        role = "close";
      }
    }
    lines.push({ index: lines.length, start, end, text: t, fenced, fence: role });
    if (nl === -1) break;
    start = nl + 1;
  }
  return lines;
}

/** 1-based line and column of an offset; `starts` are the lines' start offsets, ascending. */
export function lineColumn(starts: readonly number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo]! + 1 };
}

export const isBlank = (l: Line): boolean => l.text.trim() === "";
