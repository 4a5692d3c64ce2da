/**
 * A tolerant JSONL line reader for convergence (kept here so convergence does not depend on the
 * reducer's reader). Blank lines are skipped; a line that is not a JSON object, or one nested
 * deeper than MAX_NESTING, becomes a warning, never an exception, so a crash-truncated tail does
 * not hide the rest of the log. Nothing is ever written: every valid line is read.
 */
import { parseBoundedJson } from "../bounded-json";

export interface JsonlLine {
  /** 1-based line number in the file. */
  line: number;
  value: Record<string, unknown>;
}

export interface JsonlWarning {
  line: number;
  error: string;
}

export function readJsonlLines(text: string): { lines: JsonlLine[]; warnings: JsonlWarning[] } {
  const lines: JsonlLine[] = [];
  const warnings: JsonlWarning[] = [];
  const raw = text.split(/\r?\n/);
  raw.forEach((content, i) => {
    if (content.trim() === "") return;
    const parsed = parseBoundedJson(content);
    if (!parsed.ok) return void warnings.push({ line: i + 1, error: parsed.error });
    const value = parsed.value;
    if (value && typeof value === "object" && !Array.isArray(value)) lines.push({ line: i + 1, value: value as Record<string, unknown> });
    else warnings.push({ line: i + 1, error: "line is JSON but not an object" });
  });
  return { lines, warnings };
}

/** Zod issues as one short line: "path: message; path: message". */
export function formatIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  return issues.map((i) => `${i.path.length ? i.path.map(String).join(".") : "(record)"}: ${i.message}`).join("; ");
}
