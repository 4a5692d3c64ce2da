/**
 * Reads a packet's per-seat findings (seats/iter-NNN/{label}.json) and the finding lines of its
 * delta files (deltas/iter-NNN.jsonl) into ProducedFinding[] for seat-merge-lite. Seat files are
 * an array of findings or `{findings:[...]}`; `{label}.raw.json` files are raw seat output and are
 * skipped. Invalid findings become warnings with the reducer's reasons. Files are read through
 * the project's file layer: one it refuses (a link out of the project, a named pipe…) or one
 * nested deeper than MAX_NESTING is a warning, never read.
 */
import path from "node:path";
import { z } from "zod";
import { isWorkbenchError } from "../../core/errors";
import type { ProjectFs } from "../../core/project-fs";
import { parseBoundedJson } from "../bounded-json";
import { listEntries, refusalText } from "../place";
import { formatIssues, readJsonlLines } from "./jsonl-lines";
import { isKnownFindingKind, type ProducedFinding } from "./seat-merge-lite";

export const seatFindingSchema = z
  .object({
    unit_id: z.string().optional().describe("sha256(path:symbol:kind); when present it wins over the computed id"),
    path: z.string().optional().describe("repository-relative file path"),
    symbol: z.string().optional().describe("symbol name (function, type, SQL construct, ...)"),
    kind: z.string().optional().describe("reuse_candidate | integration_point | convention | dependency | gap (default reuse_candidate)"),
    signature: z.string().optional().describe("the symbol's signature as the seat read it"),
    reuse: z.string().optional().describe("extend | compose | wrap | import"),
    evidence: z.string().optional().describe("file:line"),
    relevance: z.unknown().optional().describe("0..1; must be numeric when present"),
    notes: z.string().optional().describe("free text"),
    verified: z.boolean().optional().describe("true when the host verified file:symbol against the code graph"),
  })
  .loose()
  .describe("one seat finding (FORMATS.md 1.4)");

export const seatFileSchema = z.union([z.array(z.unknown()), z.object({ findings: z.array(z.unknown()).describe("the seat's findings") }).loose()]).describe("a seat file: an array of findings or {findings:[...]}");

export const deltaFindingSchema = z
  .object({
    type: z.literal("finding").describe('always "finding"'),
    run: z.number().int().describe("iteration the finding was merged in"),
    path: z.string().optional().describe("file path"),
    symbol: z.string().optional().describe("symbol"),
    kind: z.string().optional().describe("finding kind"),
    agreement: z.number().optional().describe("distinct producers (informational; producedBy is authoritative)"),
    producedBy: z.array(z.string()).optional().describe("seat labels that produced the unit"),
    relevance: z.unknown().optional().describe("0..1"),
    notes: z.string().optional().describe("free text"),
  })
  .loose()
  .describe("a merged finding line in deltas/iter-NNN.jsonl");

export interface SeatReadWarning {
  file: string;
  reason: string;
  symbol?: string;
  path?: string;
}

export interface SeatReadResult {
  findings: ProducedFinding[];
  seatFiles: string[];
  deltaFiles: string[];
  warnings: SeatReadWarning[];
}

function toRelevance(v: unknown): number | null {
  if (v === undefined || v === null || v === "") return 0;
  const n = typeof v === "number" ? v : typeof v === "string" ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

/** Validates one raw finding; returns the finding or a warning reason. */
export function toProducedFinding(raw: unknown, producers: string[], iteration: number): { finding: ProducedFinding } | { reason: string; symbol?: string; path?: string } {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { reason: "finding is not an object" };
  const parsed = seatFindingSchema.safeParse(raw);
  if (!parsed.success) return { reason: formatIssues(parsed.error.issues) };
  const f = parsed.data;
  const ref: { symbol?: string; path?: string } = {};
  if (f.symbol !== undefined) ref.symbol = f.symbol;
  if (f.path !== undefined) ref.path = f.path;
  const kind = f.kind && f.kind.trim() !== "" ? f.kind.trim() : "reuse_candidate";
  if (!isKnownFindingKind(kind)) return { reason: `unknown kind "${kind}"`, ...ref };
  if (!f.path && !f.symbol) return { reason: "missing both path and symbol", ...ref };
  const relevance = toRelevance(f.relevance);
  if (relevance === null) return { reason: "non-numeric relevance", ...ref };
  const finding: ProducedFinding = { path: f.path ?? "", symbol: f.symbol ?? "", kind, relevance, producers, iteration };
  if (f.unit_id) finding.unit_id = f.unit_id;
  if (f.signature) finding.signature = f.signature;
  if (f.reuse) finding.reuse = f.reuse;
  if (f.verified === true) finding.verified = true;
  return { finding };
}

const iterDir = /^iter-(\d+)$/;
const deltaFile = /^iter-(\d+)\.jsonl$/;

/** Text of a packet file, or the reason it was not read (refused by the file layer, or gone). */
async function readPacketText(pfs: ProjectFs, rel: string, kind: "seat" | "log"): Promise<{ text: string } | { reason: string }> {
  try {
    return { text: await pfs.readText(rel, { kind }) };
  } catch (e) {
    if (!isWorkbenchError(e)) throw e;
    return { reason: e.code === "NOT_FOUND" ? "the file is gone" : refusalText({ relPath: rel, code: "unreadable", message: e.message }) };
  }
}

/** Reads seats/ and deltas/ under a packet directory (relative to the project root). Missing folders are simply empty. */
export async function readSeatAndDeltaFindings(pfs: ProjectFs, packetRel: string): Promise<SeatReadResult> {
  const out: SeatReadResult = { findings: [], seatFiles: [], deltaFiles: [], warnings: [] };
  const seatsRel = path.posix.join(packetRel, "seats");
  for (const dir of listEntries(pfs, seatsRel)) {
    const m = iterDir.exec(dir.name);
    if (!m || dir.kind !== "dir") continue;
    const iteration = Number(m[1]);
    for (const entry of listEntries(pfs, path.posix.join(seatsRel, dir.name))) {
      const file = entry.name;
      if (!file.endsWith(".json") || file.endsWith(".raw.json") || entry.kind === "dir") continue;
      const rel = path.posix.join("seats", dir.name, file);
      const label = file.slice(0, -".json".length);
      if (entry.refusal) {
        out.warnings.push({ file: rel, reason: `seat file not read: ${refusalText(entry.refusal)}` });
        continue;
      }
      const read = await readPacketText(pfs, path.posix.join(packetRel, rel), "seat");
      if ("reason" in read) {
        out.warnings.push({ file: rel, reason: `seat file not read: ${read.reason}` });
        continue;
      }
      const parsed = parseBoundedJson(read.text);
      if (!parsed.ok) {
        out.warnings.push({ file: rel, reason: parsed.tooDeep ? `seat file ${parsed.error}` : `unreadable seat file: ${parsed.error}` });
        continue;
      }
      const shape = seatFileSchema.safeParse(parsed.value);
      if (!shape.success) {
        out.warnings.push({ file: rel, reason: "seat file is neither an array nor {findings:[...]}" });
        continue;
      }
      out.seatFiles.push(rel);
      const list = Array.isArray(shape.data) ? shape.data : shape.data.findings;
      for (const raw of list) {
        const r = toProducedFinding(raw, [label], iteration);
        if ("finding" in r) out.findings.push(r.finding);
        else out.warnings.push({ file: rel, ...r });
      }
    }
  }
  const deltasRel = path.posix.join(packetRel, "deltas");
  for (const entry of listEntries(pfs, deltasRel)) {
    const file = entry.name;
    if (!deltaFile.test(file) || entry.kind === "dir") continue;
    const rel = path.posix.join("deltas", file);
    const read = entry.refusal ? { reason: refusalText(entry.refusal) } : await readPacketText(pfs, path.posix.join(packetRel, rel), "log");
    if ("reason" in read) {
      out.warnings.push({ file: rel, reason: `delta file not read: ${read.reason}` });
      continue;
    }
    out.deltaFiles.push(rel);
    const { lines, warnings } = readJsonlLines(read.text);
    for (const w of warnings) out.warnings.push({ file: rel, reason: `line ${w.line}: ${w.error}` });
    for (const { line, value } of lines) {
      if (value.type !== "finding") continue;
      const parsed = deltaFindingSchema.safeParse(value);
      if (!parsed.success) {
        out.warnings.push({ file: rel, reason: `line ${line}: ${formatIssues(parsed.error.issues)}` });
        continue;
      }
      const producers = parsed.data.producedBy && parsed.data.producedBy.length > 0 ? parsed.data.producedBy : [`delta-${parsed.data.run}`];
      const r = toProducedFinding(value, producers, parsed.data.run);
      if ("finding" in r) out.findings.push(r.finding);
      else out.warnings.push({ file: rel, ...r, reason: `line ${line}: ${r.reason}` });
    }
  }
  return out;
}
