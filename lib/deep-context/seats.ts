/**
 * Reads every seat file of a packet and merges its findings into units (the reference's
 * collectAllSeatFindings + loadSeatFindings + validateSeatFinding + dedupByUnit, fused so
 * findings are never held as objects).
 *
 * A seat file succeeds when it is a findings array or an object with a `findings` array;
 * anything else (unreadable, invalid JSON, raw CLI output) is a failed seat. Each finding is
 * validated before it is merged — not an object, unknown kind, neither path nor symbol,
 * non-numeric relevance — and an invalid one becomes a seat validation warning instead.
 *
 * Files are decoded by the byte scanner of json-scan.ts. When the scanner meets a file it
 * cannot commit in one pass (invalid after some findings were merged, or two `findings`
 * members), the whole packet is read again with JSON.parse, which is slower but needs no
 * undo: the result is the same either way.
 */
import fs from "node:fs";
import {
  F_EVIDENCE,
  F_KIND,
  F_NOTES,
  F_PATH,
  F_RELEVANCE,
  F_REUSE,
  F_SIGNATURE,
  F_SYMBOL,
  F_UNIT_ID,
  FindingSpans,
  ScanOutcome,
  T_ARRAY,
  T_FALSE,
  T_MISSING,
  T_NULL,
  T_NUMBER,
  T_OBJECT,
  T_STRING,
  T_TRUE,
  latin1,
  numberValue,
  scanSeatFile,
  spanValue,
} from "./json-scan";
import type { SeatIteration } from "./packet";
import { normalizeText, toNumber } from "./text";
import type { SeatValidationWarning, SeatsOfIteration } from "./types";
import { type Unit, UnitTable, fnvString } from "./units";

/** Finding kinds in registry-bucket order; the first is the default for a missing kind. */
export const KIND_NAMES = ["reuse_candidate", "integration_point", "convention", "dependency", "gap"] as const;
const KIND_BYTES = KIND_NAMES.map((k) => Buffer.from(k, "latin1"));

export const REASON_NOT_OBJECT = "finding is not an object";
export const REASON_NO_PATH_OR_SYMBOL = "missing both path and symbol";
export const REASON_NON_NUMERIC_RELEVANCE = "non-numeric relevance";
export const reasonUnknownKind = (kind: string) => `unknown kind "${kind}"`;

export interface SeatCollection {
  table: UnitTable;
  seatsByIteration: Record<string, SeatsOfIteration>;
  /** Labels of seats that succeeded in any iteration. */
  allSeatLabels: Set<string>;
  validationWarnings: SeatValidationWarning[];
  /** Files read from the `seats/{label}/iter-NNN/` layout (which the reference does not read). */
  labelFirstFiles: number;
  /** True when the byte scanner had to give way to JSON.parse for this packet. */
  usedFallback: boolean;
}

export type SeatDecoder = "scan" | "parse";

/** The reference's validation, on a parsed finding. Returns the reason, or null when valid. */
export function validateSeatFinding(raw: unknown): string | null {
  if (!raw || typeof raw !== "object") return REASON_NOT_OBJECT;
  const r = raw as Record<string, unknown>;
  const kind = normalizeText(r.kind) || KIND_NAMES[0];
  if (!(KIND_NAMES as readonly string[]).includes(kind)) return reasonUnknownKind(kind);
  if (!normalizeText(r.path) && !normalizeText(r.symbol)) return REASON_NO_PATH_OR_SYMBOL;
  if (r.relevance != null && !Number.isFinite(Number(r.relevance))) return REASON_NON_NUMERIC_RELEVANCE;
  return null;
}

const RESTART = Symbol("restart");

/** Whether a captured field's normalised text is its raw bytes (absent/null count as ""). */
function isClean(sp: FindingSpans, f: number): boolean {
  const t = sp.type[f];
  if (t === T_MISSING || t === T_NULL) return true;
  if (t !== T_STRING || sp.flags[f] !== 0) return false;
  const s = sp.start[f]!;
  const e = sp.end[f]!;
  return s === e || (sp.buf[s] !== 0x20 && sp.buf[e - 1] !== 0x20);
}

function cleanLength(sp: FindingSpans, f: number): number {
  return sp.type[f] === T_STRING ? sp.end[f]! - sp.start[f]! : 0;
}

/** normalizeText(finding[field]). */
function normText(sp: FindingSpans, f: number): string {
  if (isClean(sp, f)) return sp.type[f] === T_STRING ? latin1(sp.buf, sp.start[f]!, sp.end[f]!) : "";
  return normalizeText(spanValue(sp, f));
}

function matchKind(b: Buffer, s: number, e: number): number {
  const len = e - s;
  outer: for (let k = 0; k < KIND_BYTES.length; k++) {
    const w = KIND_BYTES[k]!;
    if (w.length !== len) continue;
    for (let j = 0; j < len; j++) if (b[s + j] !== w[j]) continue outer;
    return k;
  }
  return -1;
}

class Collector implements SeatCollection {
  readonly table = new UnitTable();
  readonly seatsByIteration: Record<string, SeatsOfIteration> = {};
  readonly allSeatLabels = new Set<string>();
  readonly validationWarnings: SeatValidationWarning[] = [];
  labelFirstFiles = 0;
  usedFallback = false;

  private buf = Buffer.allocUnsafe(1 << 20);
  private scratch = Buffer.allocUnsafe(1024);
  private readonly spans = new FindingSpans();
  private label = "";
  private producer = "";
  private iteration = 0;

  constructor(private readonly decoder: SeatDecoder) {}

  run(iterations: SeatIteration[]): this {
    for (const it of iterations) {
      const succeeded: string[] = [];
      const failed: string[] = [];
      for (const file of it.files) {
        this.label = file.label;
        this.producer = normalizeText(file.label) || "unknown";
        this.iteration = it.iteration;
        if (file.layout === "label-first") this.labelFirstFiles++;
        const ok = this.decoder === "scan" ? this.readScanned(file.filePath) : this.readParsed(file.filePath);
        (ok ? succeeded : failed).push(file.label);
      }
      this.seatsByIteration[it.iteration] = { succeeded, failed };
      for (const label of succeeded) this.allSeatLabels.add(label);
    }
    return this;
  }

  private warn(reason: string, symbol: string, path: string): void {
    this.validationWarnings.push({ seat: this.label, reason, symbol, path, iteration: this.iteration });
  }

  // ---- JSON.parse decoder: the reference's semantics on parsed values

  private readParsed(filePath: string): boolean {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(filePath, "utf8"));
    } catch {
      return false;
    }
    const list = Array.isArray(parsed)
      ? parsed
      : parsed && Array.isArray((parsed as { findings?: unknown }).findings)
        ? ((parsed as { findings: unknown[] }).findings)
        : null;
    if (!list) return false;
    for (const raw of list) this.addParsed(raw);
    return true;
  }

  private addParsed(raw: unknown): void {
    const reason = validateSeatFinding(raw);
    if (reason) {
      const obj = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : null;
      this.warn(reason, obj ? normalizeText(obj.symbol) : "", obj ? normalizeText(obj.path) : "");
      return;
    }
    const r = raw as Record<string, unknown>;
    const kind = normalizeText(r.kind) || KIND_NAMES[0];
    const kindIndex = (KIND_NAMES as readonly string[]).indexOf(kind);
    const path = normalizeText(r.path);
    const symbol = normalizeText(r.symbol);
    const explicit = typeof r.unit_id === "string" ? r.unit_id.trim() : "";
    let unit: Unit;
    if (explicit) {
      unit = this.table.explicit(explicit, path, symbol, kind, kindIndex, this.iteration);
    } else {
      const composite = `${path}:${symbol}:${kind}`;
      const hash = fnvString(composite);
      unit = this.table.derived(composite, hash) ?? this.table.createDerived(composite, hash, path, symbol, kind, kindIndex, this.iteration);
    }
    unit.observe(this.producer, toNumber(r.relevance, 0), this.iteration, normalizeText(r.signature), normalizeText(r.reuse));
    if (!unit.evidence) unit.evidence = normalizeText(r.evidence);
    if (!unit.notes) unit.notes = normalizeText(r.notes);
  }

  // ---- byte-scanner decoder

  private readInto(filePath: string): number {
    let fd: number;
    try {
      fd = fs.openSync(filePath, "r");
    } catch {
      return -1;
    }
    try {
      const size = fs.fstatSync(fd).size;
      if (size + 1 > this.buf.length) this.buf = Buffer.allocUnsafe(size + 1 + (size >> 3));
      let n = 0;
      for (;;) {
        if (n === this.buf.length) {
          const bigger = Buffer.allocUnsafe(this.buf.length * 2);
          this.buf.copy(bigger, 0, 0, n);
          this.buf = bigger;
        }
        const read = fs.readSync(fd, this.buf, n, this.buf.length - n, null);
        if (read === 0) return n;
        n += read;
      }
    } catch {
      return -1;
    } finally {
      fs.closeSync(fd);
    }
  }

  private readScanned(filePath: string): boolean {
    const n = this.readInto(filePath);
    if (n < 0) return false;
    const outcome = scanSeatFile(this.buf, n, this.spans, this.onElement);
    if (outcome === ScanOutcome.RESTART) throw RESTART;
    return outcome === ScanOutcome.OK;
  }

  private readonly onElement = (sp: FindingSpans): void => {
    if (sp.elementType !== T_OBJECT) {
      // An array has no kind/path/symbol: it fails on the path/symbol check.
      this.warn(sp.elementType === T_ARRAY ? REASON_NO_PATH_OR_SYMBOL : REASON_NOT_OBJECT, "", "");
      return;
    }
    const b = sp.buf;
    const type = sp.type;

    // kind (absent or empty: reuse_candidate)
    let kindIndex: number;
    const kt = type[F_KIND];
    if (kt === T_MISSING || kt === T_NULL) {
      kindIndex = 0;
    } else if (isClean(sp, F_KIND)) {
      const s = sp.start[F_KIND]!;
      const e = sp.end[F_KIND]!;
      kindIndex = s === e ? 0 : matchKind(b, s, e);
    } else {
      const text = normalizeText(spanValue(sp, F_KIND));
      kindIndex = text === "" ? 0 : (KIND_NAMES as readonly string[]).indexOf(text);
    }
    if (kindIndex < 0) {
      this.warn(reasonUnknownKind(normText(sp, F_KIND)), normText(sp, F_SYMBOL), normText(sp, F_PATH));
      return;
    }

    // path / symbol: at least one
    const pathClean = isClean(sp, F_PATH);
    const symbolClean = isClean(sp, F_SYMBOL);
    let path: string | null = pathClean ? null : normText(sp, F_PATH);
    let symbol: string | null = symbolClean ? null : normText(sp, F_SYMBOL);
    const pathEmpty = path === null ? cleanLength(sp, F_PATH) === 0 : path === "";
    const symbolEmpty = symbol === null ? cleanLength(sp, F_SYMBOL) === 0 : symbol === "";
    if (pathEmpty && symbolEmpty) {
      this.warn(REASON_NO_PATH_OR_SYMBOL, "", "");
      return;
    }

    // relevance: absent/null is 0; present must be a finite number after Number()
    let relevance = 0;
    const rt = type[F_RELEVANCE];
    if (rt === T_NUMBER) relevance = numberValue(b, sp.start[F_RELEVANCE]!, sp.end[F_RELEVANCE]!);
    else if (rt === T_TRUE) relevance = 1;
    else if (rt !== T_MISSING && rt !== T_NULL && rt !== T_FALSE) relevance = Number(spanValue(sp, F_RELEVANCE));
    if (!Number.isFinite(relevance)) {
      this.warn(REASON_NON_NUMERIC_RELEVANCE, symbol ?? normText(sp, F_SYMBOL), path ?? normText(sp, F_PATH));
      return;
    }

    const kind = KIND_NAMES[kindIndex]!;
    const explicit = type[F_UNIT_ID] === T_STRING ? (spanValue(sp, F_UNIT_ID) as string).trim() : "";
    let unit: Unit | undefined;
    if (explicit) {
      unit = this.table.explicit(explicit, path ?? normText(sp, F_PATH), symbol ?? normText(sp, F_SYMBOL), kind, kindIndex, this.iteration);
    } else if (pathClean && symbolClean) {
      // The common case: look the unit up straight from the bytes; build strings only for a new unit.
      unit = this.lookupBytes(sp, kindIndex);
      if (!unit) {
        const composite = this.compositeFromBytes(sp, kindIndex);
        const pl = cleanLength(sp, F_PATH);
        const sl = cleanLength(sp, F_SYMBOL);
        unit = this.table.createDerived(composite, this.lastHash, composite.slice(0, pl), composite.slice(pl + 1, pl + 1 + sl), kind, kindIndex, this.iteration);
      }
    } else {
      path ??= normText(sp, F_PATH);
      symbol ??= normText(sp, F_SYMBOL);
      const composite = `${path}:${symbol}:${kind}`;
      const hash = fnvString(composite);
      unit = this.table.derived(composite, hash) ?? this.table.createDerived(composite, hash, path, symbol, kind, kindIndex, this.iteration);
    }
    unit.observe(this.producer, relevance, this.iteration, this.textLike(sp, F_SIGNATURE, unit.signature), this.textLike(sp, F_REUSE, unit.reuse));
    if (!unit.evidence) unit.evidence = normText(sp, F_EVIDENCE);
    if (!unit.notes) unit.notes = normText(sp, F_NOTES);
  };

  private lastHash = 0;

  /**
   * The unit whose composite is `path:symbol:kind` spelled by two clean fields' bytes, by
   * FNV-1a over those bytes (equal to fnvString of the ASCII composite) and a byte-by-char
   * comparison. Leaves the hash in `lastHash` for createDerived.
   */
  private lookupBytes(sp: FindingSpans, kindIndex: number): Unit | undefined {
    const b = sp.buf;
    const ps = sp.start[F_PATH]!;
    const pl = cleanLength(sp, F_PATH);
    const ss = sp.start[F_SYMBOL]!;
    const sl = cleanLength(sp, F_SYMBOL);
    const kb = KIND_BYTES[kindIndex]!;
    let h = 0x811c9dc5;
    for (let k = ps, e = ps + pl; k < e; k++) h = Math.imul(h ^ b[k]!, 0x01000193);
    h = Math.imul(h ^ 0x3a, 0x01000193);
    for (let k = ss, e = ss + sl; k < e; k++) h = Math.imul(h ^ b[k]!, 0x01000193);
    h = Math.imul(h ^ 0x3a, 0x01000193);
    for (let k = 0; k < kb.length; k++) h = Math.imul(h ^ kb[k]!, 0x01000193);
    this.lastHash = h;
    const total = pl + sl + kb.length + 2;
    const table = this.table;
    entries: for (let e = table.firstEntry(h); e >= 0; e = table.nextEntry(e)) {
      const c = table.entryText(e);
      if (c.length !== total) continue;
      let j = 0;
      for (let k = 0; k < pl; k++) if (c.charCodeAt(j++) !== b[ps + k]) continue entries;
      if (c.charCodeAt(j++) !== 0x3a) continue;
      for (let k = 0; k < sl; k++) if (c.charCodeAt(j++) !== b[ss + k]) continue entries;
      if (c.charCodeAt(j++) !== 0x3a) continue;
      for (let k = 0; k < kb.length; k++) if (c.charCodeAt(j++) !== kb[k]) continue entries;
      return table.entryUnitOf(e);
    }
    return undefined;
  }

  /** `path:symbol:kind` from the bytes of two clean fields, in one string allocation. */
  private compositeFromBytes(sp: FindingSpans, kindIndex: number): string {
    const b = sp.buf;
    const pl = cleanLength(sp, F_PATH);
    const sl = cleanLength(sp, F_SYMBOL);
    const kb = KIND_BYTES[kindIndex]!;
    const total = pl + sl + kb.length + 2;
    if (total > this.scratch.length) this.scratch = Buffer.allocUnsafe(total * 2);
    const out = this.scratch;
    let j = 0;
    for (let k = sp.start[F_PATH]!, e = k + pl; k < e; k++) out[j++] = b[k]!;
    out[j++] = 0x3a;
    for (let k = sp.start[F_SYMBOL]!, e = k + sl; k < e; k++) out[j++] = b[k]!;
    out[j++] = 0x3a;
    for (let k = 0; k < kb.length; k++) out[j++] = kb[k]!;
    return latin1(out, 0, j);
  }

  /** normalizeText(finding[field]), reusing `known` when the bytes spell it (saves an allocation). */
  private textLike(sp: FindingSpans, f: number, known: string): string {
    if (!isClean(sp, f)) return normalizeText(spanValue(sp, f));
    const len = cleanLength(sp, f);
    if (len === 0) return "";
    if (known.length === len) {
      const b = sp.buf;
      const s = sp.start[f]!;
      let k = 0;
      while (k < len && b[s + k] === known.charCodeAt(k)) k++;
      if (k === len) return known;
    }
    return latin1(sp.buf, sp.start[f]!, sp.end[f]!);
  }
}

/**
 * Reads the seat files in order and merges their findings. `decoder: "parse"` forces the
 * JSON.parse path (the reference's way; used as the fallback and to cross-check the scanner).
 */
export function collectSeats(iterations: SeatIteration[], decoder: SeatDecoder = "scan"): SeatCollection {
  if (decoder === "parse") return new Collector("parse").run(iterations);
  try {
    return new Collector("scan").run(iterations);
  } catch (e) {
    if (e !== RESTART) throw e;
    const again = new Collector("parse").run(iterations);
    again.usedFallback = true;
    return again;
  }
}
