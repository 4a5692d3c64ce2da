/**
 * Reads a packet's per-seat findings (seats/iter-NNN/{label}.json) and the finding lines of its
 * delta files (deltas/iter-NNN.jsonl) into ProducedFinding[] for seat-merge-lite. Seat files are
 * an array of findings or `{findings:[...]}`; `{label}.raw.json` files are raw seat output and are
 * skipped. Invalid findings become warnings with the reducer's reasons.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { z } from "zod";
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

export const seatFileSchema = z
  .union([z.array(z.unknown()), z.object({ findings: z.array(z.unknown()).describe("the seat's findings") }).loose()])
  .describe("a seat file: an array of findings or {findings:[...]}");

export const deltaFindingSchema = z
  .object({
    type: z.literal("finding").describe("always \"finding\""),
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
export function toProducedFinding(
  raw: unknown,
  producers: string[],
  iteration: number,
): { finding: ProducedFinding } | { reason: string; symbol?: string; path?: string } {
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

async function listDir(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).sort();
  } catch {
    return [];
  }
}

const iterDir = /^iter-(\d+)$/;
const deltaFile = /^iter-(\d+)\.jsonl$/;

/** Reads seats/ and deltas/ under a packet directory. Missing folders are simply empty. */
export async function readSeatAndDeltaFindings(packetDir: string): Promise<SeatReadResult> {
  const out: SeatReadResult = { findings: [], seatFiles: [], deltaFiles: [], warnings: [] };
  const seatsDir = path.join(packetDir, "seats");
  for (const dirName of await listDir(seatsDir)) {
    const m = iterDir.exec(dirName);
    if (!m) continue;
    const iteration = Number(m[1]);
    for (const file of await listDir(path.join(seatsDir, dirName))) {
      if (!file.endsWith(".json") || file.endsWith(".raw.json")) continue;
      const rel = path.posix.join("seats", dirName, file);
      const label = file.slice(0, -".json".length);
      let body: unknown;
      try {
        body = JSON.parse(await fs.readFile(path.join(seatsDir, dirName, file), "utf8"));
      } catch (e) {
        out.warnings.push({ file: rel, reason: `unreadable seat file: ${e instanceof Error ? e.message : String(e)}` });
        continue;
      }
      const shape = seatFileSchema.safeParse(body);
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
  const deltasDir = path.join(packetDir, "deltas");
  for (const file of await listDir(deltasDir)) {
    if (!deltaFile.test(file)) continue;
    const rel = path.posix.join("deltas", file);
    let text: string;
    try {
      text = await fs.readFile(path.join(deltasDir, file), "utf8");
    } catch (e) {
      out.warnings.push({ file: rel, reason: `unreadable delta file: ${e instanceof Error ? e.message : String(e)}` });
      continue;
    }
    out.deltaFiles.push(rel);
    const { lines, warnings } = readJsonlLines(text);
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
