/**
 * The deep-context state log (deep-context-state.jsonl): torn-tail repair, then a
 * line-by-line parse that reports (never persists) corrupt lines. Same contract as the
 * reference's repairJsonlTail + parseJsonlDetailed.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import type { CorruptionWarning, StateLogRepair } from "./types";

/**
 * Bytes of the longest prefix made of complete lines (`\n` or `\r\n`) that are blank or
 * valid JSON, stopping at the first bad line. A final unterminated line is kept when it is
 * blank or valid JSON on its own. Measured on the UTF-8 re-encoding of the decoded text,
 * as the reference does (so invalid UTF-8 counts as the 3 bytes of U+FFFD).
 */
export function validPrefixBytes(content: string): number {
  const total = Buffer.byteLength(content, "utf8");
  let cursor = 0;
  let validEnd = 0;
  const len = content.length;
  while (cursor < len) {
    const nl = content.indexOf("\n", cursor);
    if (nl === -1) break;
    const lineEnd = nl > cursor && content.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    const line = content.slice(cursor, lineEnd);
    if (line.trim() !== "") {
      try {
        JSON.parse(line);
      } catch {
        break;
      }
    }
    validEnd = nl + 1;
    cursor = nl + 1;
  }
  const trailing = content.slice(cursor);
  if (trailing.trim() === "") return total;
  try {
    JSON.parse(trailing);
    return total;
  } catch {
    return Buffer.byteLength(content.slice(0, validEnd), "utf8");
  }
}

/**
 * Truncates a torn or corrupt tail in place: everything from the first line that is not
 * valid JSON goes (including valid lines after it). Missing or empty file: nothing to do.
 */
export function repairJsonlTail(filePath: string): StateLogRepair {
  if (!fs.existsSync(filePath)) return { repaired: false, droppedBytes: 0 };
  const content = fs.readFileSync(filePath, "utf8");
  if (content.length === 0) return { repaired: false, droppedBytes: 0 };
  const originalBytes = Buffer.byteLength(content, "utf8");
  const droppedBytes = originalBytes - validPrefixBytes(content);
  if (droppedBytes <= 0) return { repaired: false, droppedBytes: 0 };
  fs.truncateSync(filePath, originalBytes - droppedBytes);
  return { repaired: true, droppedBytes };
}

export interface ParsedJsonl {
  records: unknown[];
  corruptionWarnings: CorruptionWarning[];
}

/**
 * Splits on `\n`, trims each line, skips blank ones and parses the rest. A line that does
 * not parse becomes `{line (1-based), length (UTF-16 units of the trimmed line), sha256
 * (first 12 hex of the trimmed line's hash), error (the JSON.parse message)}`: the content
 * itself is never kept, since a malformed record may carry secrets.
 */
export function parseJsonlDetailed(content: string): ParsedJsonl {
  const records: unknown[] = [];
  const corruptionWarnings: CorruptionWarning[] = [];
  const lines = String(content || "").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    try {
      records.push(JSON.parse(line));
    } catch (error) {
      corruptionWarnings.push({
        line: i + 1,
        length: line.length,
        sha256: crypto.createHash("sha256").update(line).digest("hex").slice(0, 12),
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return { records, corruptionWarnings };
}

export interface StateLog extends ParsedJsonl {
  repair: StateLogRepair;
}

/**
 * Repairs the log's tail (writing to it), then reads and parses it; a missing log is
 * empty. With `readOnly` the file is left alone: the torn tail is only left out of what
 * is parsed, and `repair` says what a write would have dropped (viewers must not write).
 */
export function readStateLog(filePath: string, opts: { readOnly?: boolean } = {}): StateLog {
  if (opts.readOnly) {
    if (!fs.existsSync(filePath)) return { ...parseJsonlDetailed(""), repair: { repaired: false, droppedBytes: 0 } };
    const bytes = fs.readFileSync(filePath);
    const content = bytes.toString("utf8");
    const total = Buffer.byteLength(content, "utf8");
    const droppedBytes = content.length === 0 ? 0 : total - validPrefixBytes(content);
    if (droppedBytes <= 0) return { ...parseJsonlDetailed(content), repair: { repaired: false, droppedBytes: 0 } };
    // What truncating the file to that length leaves (the length counts re-encoded text, so
    // with invalid UTF-8 it can differ from the raw bytes; truncate(2) zero-fills past the end).
    const keep = total - droppedBytes;
    const kept = keep <= bytes.length ? bytes.subarray(0, keep) : Buffer.concat([bytes, Buffer.alloc(keep - bytes.length)]);
    return { ...parseJsonlDetailed(kept.toString("utf8")), repair: { repaired: true, droppedBytes } };
  }
  const repair = repairJsonlTail(filePath);
  const content = fs.existsSync(filePath) ? fs.readFileSync(filePath, "utf8") : "";
  return { ...parseJsonlDetailed(content), repair };
}
