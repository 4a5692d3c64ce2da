import path from "node:path";
import { z } from "zod";
import { isWorkbenchError } from "../../core/errors";
import { readJsonFile } from "../../core/lenient";
import type { ProjectFs } from "../../core/project-fs";
import { verifyEvidence, type EvidenceCheck } from "./evidence";

/** Most REUSE entries the page checks against the repository (each check reads a file). */
const MAX_REUSE_ENTRIES = 200;

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
  /** The markdown report, or the JSON companion when only that exists. */
  relPath: string;
  title: string | null;
  reuse: ReuseEntry[];
  /** Where the REUSE catalog came from: the markdown table or context-report.json. */
  reuseSource: "markdown" | "json" | null;
  /** The JSON companion (context-report.json) when the packet has one. */
  json: { relPath: string; reuseEntries: number; keys: string[] } | null;
  /** Everything after the REUSE catalog, as markdown (rendered sanitized). */
  rest: string;
}

function cells(line: string): string[] {
  return line
    .replace(/^\s*\|/, "")
    .replace(/\|\s*$/, "")
    .split("|")
    .map((c) => c.trim().replace(/^`|`$/g, ""));
}

/** `sym (src/x.ts:12)` → symbol and location; a bare `src/x.ts:12` → location only. */
function splitSymbol(cell: string): { symbol: string; location: string } {
  const m = /^(.*?)\s*\(([^()]+:\d+[^()]*)\)\s*$/.exec(cell);
  if (m) return { symbol: m[1]!.replace(/`/g, "").trim(), location: m[2]!.trim() };
  return /:\d+/.test(cell) ? { symbol: "", location: cell } : { symbol: cell, location: "" };
}

const text = z.union([z.string(), z.number()]).transform(String);

/** One REUSE entry of context-report.json; field names vary between hosts, so both spellings are read. */
const jsonReuseEntrySchema = z
  .object({
    id: text.optional().describe("catalog id, e.g. R1"),
    symbol: z.string().optional().describe("the function, type or utility to reuse"),
    path: z.string().optional().describe("file the symbol lives in"),
    file: z.string().optional().describe("alias of path"),
    line: z.coerce.number().int().optional().describe("line of the symbol in path"),
    location: z.string().optional().describe("file:line as cited"),
    signature: z.string().optional().describe("the symbol's signature"),
    reuse: z.string().optional().describe("how to extend or reuse it"),
    howToExtend: z.string().optional().describe("alias of reuse"),
    how_to_extend: z.string().optional().describe("alias of reuse"),
    confidence: text.optional().describe("confidence by agreement"),
    agreement: text.optional().describe("executors that agree"),
    freshness: z.string().optional().describe("verified / unverified when the report was written"),
    notes: z.string().optional().describe("free text"),
  })
  .passthrough();

export const contextReportJsonSchema = z
  .object({
    title: z.string().optional().describe("report title"),
    reuseCatalog: z.array(jsonReuseEntrySchema).optional().describe("the REUSE catalog"),
    reuse_catalog: z.array(jsonReuseEntrySchema).optional().describe("the REUSE catalog (snake case)"),
    reuse: z.array(jsonReuseEntrySchema).optional().describe("the REUSE catalog (short name)"),
  })
  .passthrough();

type JsonReuseEntry = z.output<typeof jsonReuseEntrySchema>;

function fromJsonEntry(e: JsonReuseEntry): Omit<ReuseEntry, "check"> {
  const file = e.path ?? e.file ?? "";
  const location = e.location ?? (file ? (e.line !== undefined ? `${file}:${e.line}` : file) : "");
  return {
    id: e.id ?? "",
    symbol: e.symbol ?? "",
    location,
    signature: e.signature ?? "",
    reuse: e.reuse ?? e.howToExtend ?? e.how_to_extend ?? "",
    confidence: e.confidence ?? "",
    agree: e.agreement ?? "",
    recordedFreshness: e.freshness ?? "",
    notes: e.notes ?? "",
  };
}

async function checked(pfs: ProjectFs, entry: Omit<ReuseEntry, "check">): Promise<ReuseEntry> {
  return { ...entry, check: await verifyEvidence(pfs, { path: entry.location.replace(/:\d+.*$/, ""), symbol: entry.symbol, evidence: entry.location }) };
}

/**
 * The packet's context-report.md (assets/context_report_template.md): the REUSE catalog
 * table first, each entry checked against the repository, then the other sections.
 */
export async function readContextReport(pfs: ProjectFs, packetRel: string, warn: (message: string) => void = () => undefined): Promise<ContextReport | null> {
  const rel = path.posix.join(packetRel, "context-report.md");
  const jsonRel = path.posix.join(packetRel, "context-report.json");
  const doc = await readJsonFile(pfs, jsonRel, contextReportJsonSchema, (w) => warn(w.message));
  const jsonEntries = doc ? (doc.reuseCatalog ?? doc.reuse_catalog ?? doc.reuse ?? []) : [];
  const json = doc ? { relPath: jsonRel, reuseEntries: jsonEntries.length, keys: Object.keys(doc) } : null;
  let text: string;
  try {
    text = await pfs.readText(rel);
  } catch (e) {
    if (!isWorkbenchError(e)) throw e;
    if (!doc) return null;
    const reuse = await Promise.all(jsonEntries.slice(0, MAX_REUSE_ENTRIES).map((entry) => checked(pfs, fromJsonEntry(entry))));
    return { relPath: jsonRel, title: doc.title ?? null, reuse, reuseSource: "json", json, rest: "" };
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
    for (const r of rows.slice(0, MAX_REUSE_ENTRIES)) {
      const { symbol, location } = splitSymbol(at(r, "symbol"));
      reuse.push(
        await checked(pfs, {
          id: at(r, "id"),
          symbol,
          location,
          signature: at(r, "signature"),
          reuse: at(r, "reuse"),
          confidence: at(r, "confidence"),
          agree: at(r, "agree"),
          recordedFreshness: at(r, "freshness"),
          notes: at(r, "notes"),
        }),
      );
    }
  }
  let reuseSource: ContextReport["reuseSource"] = reuse.length ? "markdown" : null;
  if (!reuse.length && jsonEntries.length) {
    reuse.push(...(await Promise.all(jsonEntries.slice(0, MAX_REUSE_ENTRIES).map((entry) => checked(pfs, fromJsonEntry(entry))))));
    reuseSource = "json";
  }
  const before = start === -1 ? [] : lines.slice(0, start);
  const rest = [...before.filter((l) => !/^#\s/.test(l)), ...lines.slice(start === -1 ? 0 : restFrom)].join("\n").trim();
  return { relPath: rel, title: title ?? doc?.title ?? null, reuse, reuseSource, json, rest };
}
