/**
 * The deep-context state log (deep-context-state.jsonl), read in one pass that parses every
 * line, reports corrupt ones (never their content) and says how the file was read:
 * - "intact": every non-blank line is a record;
 * - "torn_tail_repaired": the only bad line is the last non-blank one, a write cut short by a
 *   crash. The reference's repair, byte for byte: the file is cut before that line (unless
 *   read-only) and what is left is read;
 * - "corrupt_lines_kept": a bad line with anything after it, or a line refused for its depth.
 *   The file is left whole, every bad line is reported and every valid line is read. (The
 *   reference cuts the file at the first bad line, destroying every valid line after it.)
 */
import { isWorkbenchError } from "../../core/errors";
import type { ProjectFs } from "../../core/project-fs";
import { sha256HexOfText } from "../../core/sha256-js";
import { truncateRegularSync } from "../../core/fs/truncate";
import { TOO_DEEP_REASON, tooDeep } from "../bounded-json";
import { skipValue } from "./json-scan";
import type { CorruptionWarning, StateLogReading, StateLogRepair } from "../types";

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

/** Whether text is one JSON value (with JSON whitespace around it), checked without building it. */
function isJson(text: string): boolean {
  const b = Buffer.from(text, "utf8");
  let i = 0;
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x09 || b[i] === 0x0a || b[i] === 0x0d)) i++;
  if (i === b.length) return false;
  let e = skipValue(b, i, b.length);
  if (e < 0) return false;
  while (e < b.length && (b[e] === 0x20 || b[e] === 0x09 || b[e] === 0x0a || b[e] === 0x0d)) e++;
  return e === b.length;
}

export interface ParsedJsonl {
  records: unknown[];
  corruptionWarnings: CorruptionWarning[];
}

function corruption(lineNo: number, line: string, error: string): CorruptionWarning {
  return { line: lineNo, length: line.length, sha256: sha256HexOfText(line).slice(0, 12), error };
}

/** One trimmed, non-blank line: its record, or the warning that replaces it. */
function parseLine(line: string, lineNo: number): { record: unknown } | { warning: CorruptionWarning; valid: boolean } {
  if (tooDeep(line)) return { warning: corruption(lineNo, line, TOO_DEEP_REASON), valid: isJson(line) };
  try {
    return { record: JSON.parse(line) as unknown };
  } catch (error) {
    return { warning: corruption(lineNo, line, error instanceof Error ? error.message : String(error)), valid: false };
  }
}

/**
 * Splits on `\n`, trims each line, skips blank ones and parses the rest. A line that does
 * not parse becomes `{line (1-based), length (UTF-16 units of the trimmed line), sha256
 * (first 12 hex of the trimmed line's hash), error (the JSON.parse message)}`: the content
 * itself is never kept, since a malformed record may carry secrets. A line nested deeper
 * than MAX_NESTING is reported the same way instead of being parsed.
 */
export function parseJsonlDetailed(content: string): ParsedJsonl {
  const records: unknown[] = [];
  const corruptionWarnings: CorruptionWarning[] = [];
  const lines = String(content || "").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    const r = parseLine(line, i + 1);
    if ("record" in r) records.push(r.record);
    else corruptionWarnings.push(r.warning);
  }
  return { records, corruptionWarnings };
}

export interface StateLog extends ParsedJsonl {
  repair: StateLogRepair;
  reading: StateLogReading;
}

export interface StateLogInterpretation extends StateLog {
  /** The length to cut the file to (torn tail only), else null. */
  truncateTo: number | null;
}

const JSON_WS = /^[ \t\r\n]*$/;

/** True when trimming removed something JSON does not count as whitespace (U+00A0, U+FEFF, …): the untrimmed line is not JSON. */
function trimmedMoreThanJsonWhitespace(raw: string, trimmed: string): boolean {
  if (raw.length === trimmed.length) return false;
  const lead = raw.length - raw.trimStart().length;
  return !JSON_WS.test(raw.slice(0, lead)) || !JSON_WS.test(raw.slice(lead + trimmed.length));
}

/** How the state log's bytes are read (see the file comment); pure, nothing is written. */
export function interpretStateLog(bytes: Buffer): StateLogInterpretation {
  const content = bytes.toString("utf8");
  const records: unknown[] = [];
  const corruptionWarnings: CorruptionWarning[] = [];
  let badLines = 0;
  let firstBadStart = -1;
  let firstBadLine = -1;
  let lastNonBlank = -1;
  let lastWasRecord = false;
  let lineNo = 0;
  for (let pos = 0; pos <= content.length;) {
    const nl = content.indexOf("\n", pos);
    const end = nl === -1 ? content.length : nl;
    lineNo++;
    const raw = content.slice(pos, end);
    const line = raw.trim();
    if (line) {
      lastNonBlank = lineNo;
      const r = parseLine(line, lineNo);
      // "Bad" as the reference's repair sees lines: not JSON as written (a line refused for
      // its depth alone is valid JSON, and a torn line is never cut for that).
      let bad: boolean;
      if ("record" in r) {
        records.push(r.record);
        lastWasRecord = true;
        bad = trimmedMoreThanJsonWhitespace(raw, line);
      } else {
        corruptionWarnings.push(r.warning);
        lastWasRecord = false;
        bad = !r.valid || trimmedMoreThanJsonWhitespace(raw, line);
      }
      if (bad) {
        badLines++;
        if (firstBadStart < 0) {
          firstBadStart = pos;
          firstBadLine = lineNo;
        }
      }
    }
    if (nl === -1) break;
    pos = nl + 1;
  }
  if (badLines === 0 || badLines > 1 || firstBadLine !== lastNonBlank) {
    const kept = badLines > 0 || corruptionWarnings.length > 0;
    return {
      records,
      corruptionWarnings,
      repair: kept ? { repaired: false, droppedBytes: 0, reading: "corrupt_lines_kept" } : { repaired: false, droppedBytes: 0 },
      reading: kept ? "corrupt_lines_kept" : "intact",
      truncateTo: null,
    };
  }
  // A torn tail: the reference's lengths, measured on the re-encoded text.
  const total = Buffer.byteLength(content, "utf8");
  const keep = Buffer.byteLength(content.slice(0, firstBadStart), "utf8");
  const repair: StateLogRepair = { repaired: true, droppedBytes: total - keep };
  if (!content.includes("\uFFFD")) {
    // What is left is exactly the lines already read, without the torn one (the last read).
    if (lastWasRecord) records.pop();
    else corruptionWarnings.pop();
    return { records, corruptionWarnings, repair, reading: "torn_tail_repaired", truncateTo: keep };
  }
  // Invalid UTF-8: the lengths count U+FFFD as 3 bytes, so the cut can fall elsewhere in the
  // raw bytes (truncate(2) zero-fills past the end): read what the cut file holds.
  const kept = keep <= bytes.length ? bytes.subarray(0, keep) : Buffer.concat([bytes, Buffer.alloc(keep - bytes.length)]);
  return { ...parseJsonlDetailed(kept.toString("utf8")), repair, reading: "torn_tail_repaired", truncateTo: keep };
}

/**
 * Reads the state log through the project's file layer and, unless `readOnly`, cuts a torn
 * tail off the file (see interpretStateLog). A missing log is empty. Refused files (a link
 * out of the project, a named pipe, over the log cap…) throw the file layer's error.
 */
export function readStateLog(pfs: ProjectFs, rel: string, opts: { readOnly?: boolean } = {}): StateLog {
  let bytes: Buffer;
  try {
    bytes = pfs.readBytesSync(rel, { kind: "log" });
  } catch (e) {
    if (isWorkbenchError(e) && e.code === "NOT_FOUND") return { records: [], corruptionWarnings: [], repair: { repaired: false, droppedBytes: 0 }, reading: "intact" };
    throw e;
  }
  const { truncateTo, ...log } = interpretStateLog(bytes);
  if (truncateTo !== null && !opts.readOnly) truncateRegularSync(pfs.writablePathSync(rel), truncateTo);
  return log;
}
