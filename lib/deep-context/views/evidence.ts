import { isWorkbenchError } from "../../core/errors";
import type { ProjectFs } from "../../core/project-fs";

export interface EvidenceCheck {
  status: "verified" | "stale" | "missing";
  file: string;
  line: number | null;
  /** The cited line as it reads today (when the file and line exist). */
  lineText: string | null;
  symbolFound: boolean;
  reason: string;
}

/** `src/x.ts:42` → file and line; a plain path → file only. */
export function parseEvidence(evidence: string, fallbackPath: string): { file: string; line: number | null } {
  const m = /^(.+?):(\d+)(?:[-:]\d+)?$/.exec(evidence.trim());
  if (m) return { file: m[1]!, line: Number(m[2]) };
  return { file: (evidence.trim() || fallbackPath).trim(), line: null };
}

/**
 * Whether a finding's evidence still holds in the indexed repository: the file exists
 * and the symbol is still in it (verified), the file exists but the symbol is gone
 * (stale), or the file is gone (missing). Paths outside the project are refused.
 */
export async function verifyEvidence(pfs: ProjectFs, finding: { path: string; symbol: string; evidence: string }): Promise<EvidenceCheck> {
  const { file, line } = parseEvidence(finding.evidence, finding.path);
  let text: string;
  try {
    text = await pfs.readText(file);
  } catch (e) {
    if (!isWorkbenchError(e)) throw e;
    const reason = e.code === "UNSAFE_PATH" ? "the path points outside the project" : e.code === "TOO_LARGE" ? "the file is too large to check" : "the file is not in the repository";
    return { status: "missing", file, line, lineText: null, symbolFound: false, reason };
  }
  const lines = text.split(/\r?\n/);
  const lineText = line !== null && line >= 1 && line <= lines.length ? lines[line - 1]! : null;
  // The symbol's last segment (`Foo.bar` → `bar`, `db.prepare().all` → `all`) is what the code spells.
  const needle = finding.symbol.split(/[.#:]/).filter(Boolean).pop()?.replace(/\(\)$/, "") ?? "";
  const symbolFound = needle !== "" && text.includes(needle);
  if (!needle) return { status: "verified", file, line, lineText, symbolFound: false, reason: "the file exists (no symbol to look for)" };
  return symbolFound
    ? { status: "verified", file, line, lineText, symbolFound, reason: `the file exists and still mentions ${needle}` }
    : { status: "stale", file, line, lineText, symbolFound, reason: `the file exists but no longer mentions ${needle}` };
}
