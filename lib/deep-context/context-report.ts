import path from "node:path";
import { isWorkbenchError } from "../core/errors";
import type { ProjectFs } from "../core/project-fs";
import { verifyEvidence, type EvidenceCheck } from "./evidence";

export interface ReuseEntry {
  id: string;
  symbol: string;
  /** `file:line` as the report cites it. */
  location: string;
  signature: string;
  reuse: string;
  confidence: string;
  agree: string;
  /** What the report recorded (verified / unverified). */
  recordedFreshness: string;
  notes: string;
  /** What the repository says today. */
  check: EvidenceCheck;
}

export interface ContextReport {
  relPath: string;
  title: string | null;
  reuse: ReuseEntry[];
  /** Everything after the REUSE catalog, as markdown (rendered sanitized). */
  rest: string;
}

function cells(line: string): string[] {
  return line.replace(/^\s*\|/, "").replace(/\|\s*$/, "").split("|").map((c) => c.trim().replace(/^`|`$/g, ""));
}

/** `sym (src/x.ts:12)` → symbol and location; a bare `src/x.ts:12` → location only. */
function splitSymbol(cell: string): { symbol: string; location: string } {
  const m = /^(.*?)\s*\(([^()]+:\d+[^()]*)\)\s*$/.exec(cell);
  if (m) return { symbol: m[1]!.replace(/`/g, "").trim(), location: m[2]!.trim() };
  return /:\d+/.test(cell) ? { symbol: "", location: cell } : { symbol: cell, location: "" };
}

/**
 * The packet's context-report.md (assets/context_report_template.md): the REUSE catalog
 * table first, each entry checked against the repository, then the other sections.
 */
export async function readContextReport(pfs: ProjectFs, packetRel: string): Promise<ContextReport | null> {
  const rel = path.posix.join(packetRel, "context-report.md");
  let text: string;
  try {
    text = await pfs.readText(rel);
  } catch (e) {
    if (isWorkbenchError(e)) return null;
    throw e;
  }
  const lines = text.split(/\r?\n/);
  const title = /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? null;
  const start = lines.findIndex((l) => /^##\s+.*reuse catalog/i.test(l));
  const reuse: ReuseEntry[] = [];
  let restFrom = 0;
  if (start !== -1) {
    let i = start + 1;
    while (i < lines.length && !lines[i]!.trim().startsWith("|")) i++;
    const header = i < lines.length ? cells(lines[i]!).map((h) => h.toLowerCase()) : [];
    const col = (name: RegExp) => header.findIndex((h) => name.test(h));
    const idx = { id: col(/^id$/), symbol: col(/symbol/), signature: col(/signature/), reuse: col(/^reuse$/), confidence: col(/confidence/), agree: col(/agree/), freshness: col(/freshness/), notes: col(/notes/) };
    i += 2; // header and separator
    const rows: string[][] = [];
    while (i < lines.length && lines[i]!.trim().startsWith("|")) rows.push(cells(lines[i++]!));
    restFrom = i;
    const at = (r: string[], k: keyof typeof idx) => (idx[k] >= 0 ? (r[idx[k]] ?? "") : "");
    for (const r of rows.slice(0, 200)) {
      const { symbol, location } = splitSymbol(at(r, "symbol"));
      reuse.push({
        id: at(r, "id"),
        symbol,
        location,
        signature: at(r, "signature"),
        reuse: at(r, "reuse"),
        confidence: at(r, "confidence"),
        agree: at(r, "agree"),
        recordedFreshness: at(r, "freshness"),
        notes: at(r, "notes"),
        check: await verifyEvidence(pfs, { path: location.replace(/:\d+.*$/, ""), symbol, evidence: location }),
      });
    }
  }
  const before = start === -1 ? [] : lines.slice(0, start);
  const rest = [...before.filter((l) => !/^#\s/.test(l)), ...lines.slice(start === -1 ? 0 : restFrom)].join("\n").trim();
  return { relPath: rel, title, reuse, rest };
}
