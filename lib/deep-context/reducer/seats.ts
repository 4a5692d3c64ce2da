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
 *
 * Files are read through the project's file layer: a seat file it refuses (a link out of the
 * project, a named pipe, a hard link, over the seat cap) is a failed seat with a validation
 * warning naming why, and nothing of it is read. A file nested deeper than MAX_NESTING is a
 * failed seat with a warning too (see json-scan.ts), under either decoder.
 */
import { isWorkbenchError } from "../../core/errors";
import type { ProjectFs } from "../../core/project-fs";
import { readIntoSync } from "../../core/fs/read-into";
import { refusalOf } from "../../core/fs/refusal";
import type { FileWarning } from "../../core/warnings";
import { TOO_DEEP_REASON, tooDeep } from "../bounded-json";
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
  S_NONASCII,
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
  utf8,
} from "./json-scan";
import type { SeatFileRef, SeatIteration } from "./packet";
import { refusalText } from "../place";
import { normalizeText, toNumber } from "../text";
import type { SeatValidationWarning, SeatsOfIteration } from "../types";
import { A_REUSE, A_SIGNATURE, ATTR_STRIDE, KIND_BYTES, KIND_NAMES, U_EVIDENCE, U_NOTES, U_REUSE, U_SIGNATURE, UNIT_STRIDE, UnitTable, kindHash } from "./units";

export { KIND_NAMES } from "./units";

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
  /** Seat files not read (refused by the file layer, or nested too deep), each named with why. */
  fileWarnings: FileWarning[];
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
const EMPTY = Buffer.alloc(0);

/** normalizeText(finding[field]). */
function normText(sp: FindingSpans, f: number): string {
  const t = sp.type[f];
  if (t === T_MISSING || t === T_NULL) return "";
  if (t === T_STRING && sp.flags[f] === 0) return normalizeText(latin1(sp.buf, sp.start[f]!, sp.end[f]!));
  return normalizeText(spanValue(sp, f));
}

/** The kind whose name is b[s, e), or -1: picked by length (and first letter), then compared. */
function matchKind(b: Uint8Array, s: number, e: number): number {
  const len = e - s;
  const k = len === 15 ? 0 : len === 17 ? 1 : len === 10 ? (b[s] === 0x63 ? 2 : 3) : len === 3 ? 4 : -1;
  if (k < 0) return -1;
  const w = KIND_BYTES[k]!;
  for (let j = 0; j < len; j++) if (b[s + j] !== w[j]) return -1;
  return k;
}

/** compositeHash (units.ts) of `path:symbol:kind` spelled by b[ps, ps + pl), ':', b[ss, ss + sl), ':', the kind. */
function compositeHashOf(b: Uint8Array, ps: number, pl: number, ss: number, sl: number, kindIndex: number): number {
  let h = FNV_OFFSET;
  for (let k = ps, e = ps + pl; k < e; k++) h = Math.imul(h ^ b[k]!, FNV_PRIME);
  h = Math.imul(h ^ 0x3a, FNV_PRIME);
  for (let k = ss, e = ss + sl; k < e; k++) h = Math.imul(h ^ b[k]!, FNV_PRIME);
  return kindHash(Math.imul(h ^ 0x3a, FNV_PRIME), kindIndex);
}

/**
 * Whether the raw bytes of an unescaped ASCII string are their own normalizeText: no space at
 * either end and none doubled (no other whitespace can stand raw in a JSON string).
 */
function isNormal(b: Uint8Array, s: number, len: number): boolean {
  if (len === 0) return true;
  if (b[s] === 0x20 || b[s + len - 1] === 0x20) return false;
  for (let k = s + 1, e = s + len; k < e; k++) if (b[k] === 0x20 && b[k - 1] === 0x20) return false;
  return true;
}

/** Bytes of a string field as scanned (0 for any other type). */
function stringLength(sp: FindingSpans, f: number): number {
  return sp.type[f] === T_STRING ? sp.end[f]! - sp.start[f]! : 0;
}

/** Hex digit value of a byte, or -1. */
function hexValue(c: number): number {
  return c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;
}

/**
 * normalizeText of a string field (absent or null: ""), written as bytes at out[o]: escapes
 * decoded, whitespace runs made one space, the ends trimmed. Returns its length, or -1 when
 * the text is not printable ASCII without `"` and `\` (what the arena holds): non-ASCII, such
 * characters or other control characters, or any other type, go through strings.
 */
function normalizeInto(sp: FindingSpans, f: number, out: Uint8Array, o: number): number {
  const ty = sp.type[f];
  if (ty === T_MISSING || ty === T_NULL) return 0;
  if (ty !== T_STRING || (sp.flags[f]! & S_NONASCII) !== 0) return -1;
  const b = sp.buf;
  const e = sp.end[f]!;
  let i = sp.start[f]!;
  let n = 0;
  let space = false;
  while (i < e) {
    let c = b[i]!;
    if (c === 0x5c) {
      const x = b[i + 1]!;
      if (x === 0x74 || x === 0x6e || x === 0x72 || x === 0x66) {
        c = 0x20;
        i += 2;
      } else if (x === 0x2f) {
        c = 0x2f;
        i += 2;
      } else if (x === 0x75) {
        c = (hexValue(b[i + 2]!) << 12) | (hexValue(b[i + 3]!) << 8) | (hexValue(b[i + 4]!) << 4) | hexValue(b[i + 5]!);
        i += 6;
        // \s within ASCII: tab, newline, vertical tab, form feed, carriage return, space.
        if ((c >= 0x09 && c <= 0x0d) || c === 0x20) c = 0x20;
        else if (c < 0x20 || c > 0x7f || c === 0x22 || c === 0x5c) return -1;
      } else {
        return -1;
      }
    } else {
      i++;
    }
    if (c === 0x20) {
      space = n > 0;
    } else {
      if (space) {
        out[o + n++] = 0x20;
        space = false;
      }
      out[o + n++] = c;
    }
  }
  return n;
}

/** toNumber-style relevance of a finding (absent/null: 0); NaN or ±Infinity when not a finite number. */
function relevanceOf(sp: FindingSpans): number {
  const rt = sp.type[F_RELEVANCE];
  if (rt === T_NUMBER) return numberValue(sp.buf, sp.start[F_RELEVANCE]!, sp.end[F_RELEVANCE]!);
  if (rt === T_TRUE) return 1;
  if (rt === T_MISSING || rt === T_NULL || rt === T_FALSE) return 0;
  return Number(spanValue(sp, F_RELEVANCE));
}

function kindIndexOfText(text: string): number {
  return text === "" ? 0 : (KIND_NAMES as readonly string[]).indexOf(text);
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** Total size of the seat files (0 for unreadable ones) and the largest. */
function seatFileSizes(pfs: ProjectFs, iterations: SeatIteration[]): { total: number; max: number } {
  let total = 0;
  let max = 0;
  for (const it of iterations) {
    for (const file of it.files) {
      if (file.entry !== "file") continue;
      // Refused or gone: a failed seat, found when it is read.
      const size = pfs.statSync(file.rel)?.size ?? 0;
      total += size;
      if (size > max) max = size;
    }
  }
  return { total, max };
}

/** The validation warning's reason for a seat file the file layer would not read. */
export function refusedSeatReason(w: Pick<FileWarning, "relPath" | "message">): string {
  return `seat file not read: ${refusalText(w as FileWarning)}`;
}

export const TOO_DEEP_SEAT_REASON = `seat file ${TOO_DEEP_REASON}`;

class Collector implements SeatCollection {
  readonly table: UnitTable;
  readonly seatsByIteration: Record<string, SeatsOfIteration> = {};
  readonly allSeatLabels = new Set<string>();
  readonly validationWarnings: SeatValidationWarning[] = [];
  labelFirstFiles = 0;
  usedFallback = false;
  readonly fileWarnings: FileWarning[] = [];

  private buf: Buffer = EMPTY;
  /** Normalised path and symbol bytes of a finding whose raw ones are not (mergeNormalizedBytes). */
  private scratch: Buffer = Buffer.allocUnsafe(1024);
  private readonly spans = new FindingSpans();
  private label = "";
  private producer = 0;
  private iteration = 0;

  constructor(
    private readonly pfs: ProjectFs,
    private readonly decoder: SeatDecoder,
    sizes: { total: number; max: number },
  ) {
    // Typed arrays and the arena are sized for the packet up front, generously (pages are
    // only touched as they fill, and growing would copy); the read buffer holds the largest
    // file and is reused for every file.
    this.table = new UnitTable(Math.ceil(sizes.total / 1024) + 64, Math.ceil(sizes.total / 4) + 4096, {
      expectedAttrs: Math.ceil(sizes.total / 320) + 256,
    });
    this.buf = Buffer.allocUnsafeSlow(sizes.max + 64);
  }

  run(iterations: SeatIteration[]): this {
    for (const it of iterations) {
      const succeeded: string[] = [];
      const failed: string[] = [];
      for (const file of it.files) {
        this.label = file.label;
        this.producer = this.table.producerId(normalizeText(file.label) || "unknown");
        this.iteration = it.iteration;
        if (file.layout === "label-first") this.labelFirstFiles++;
        const ok = this.decoder === "scan" ? this.readScanned(file) : this.readParsed(file);
        (ok ? succeeded : failed).push(file.label);
      }
      this.seatsByIteration[it.iteration] = { succeeded, failed };
      for (const label of succeeded) this.allSeatLabels.add(label);
    }
    // The read buffer (as large as the largest seat file) is not needed by readers of the
    // collection, which the run page keeps.
    this.buf = EMPTY;
    this.spans.buf = EMPTY;
    return this;
  }

  private warn(reason: string, symbol: string, path: string): void {
    this.validationWarnings.push({ seat: this.label, reason, symbol, path, iteration: this.iteration });
  }

  // ---- JSON.parse decoder: the reference's semantics on parsed values

  private readParsed(file: SeatFileRef): boolean {
    const n = this.read(file);
    if (n < 0) return false;
    const text = this.buf.toString("utf8", 0, n);
    if (tooDeep(text)) {
      this.tooDeep(file);
      return false;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return false;
    }
    const list = Array.isArray(parsed) ? parsed : parsed && Array.isArray((parsed as { findings?: unknown }).findings) ? (parsed as { findings: unknown[] }).findings : null;
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
    this.merge(
      explicit,
      path,
      symbol,
      kindIndex,
      toNumber(r.relevance, 0),
      normalizeText(r.signature),
      normalizeText(r.reuse),
      () => normalizeText(r.evidence),
      () => normalizeText(r.notes),
    );
  }

  /** Merges one valid finding given as normalised strings. */
  private merge(explicit: string, path: string, symbol: string, kindIndex: number, relevance: number, signature: string, reuse: string, evidence: () => string, notes: () => string): void {
    const t = this.table;
    let u: number;
    if (explicit) {
      u = t.explicitUnit(explicit, path, symbol, kindIndex, this.iteration);
    } else {
      const composite = `${path}:${symbol}:${KIND_NAMES[kindIndex]}`;
      u = t.findComposite(composite);
      if (u < 0) u = t.createComposite(composite, path, symbol, kindIndex, this.iteration);
    }
    const e = t.attrFor(u, this.producer);
    t.observeNumbers(u, relevance, this.iteration);
    t.internText(signature);
    t.setAttrText(u, e, A_SIGNATURE, t.textOff, t.textLen);
    t.internText(reuse);
    t.setAttrText(u, e, A_REUSE, t.textOff, t.textLen);
    if (t.textEmpty(u, U_EVIDENCE)) t.setText(u, U_EVIDENCE, evidence());
    if (t.textEmpty(u, U_NOTES)) t.setText(u, U_NOTES, notes());
  }

  // ---- byte-scanner decoder

  /**
   * The bytes of a seat file, or null for a failed seat: a folder (failed, as in the
   * reference), an entry the file layer refused or refuses now (with a warning), or a file
   * gone since the folder was listed.
   */
  private read(file: SeatFileRef): number {
    if (file.entry === "dir") return -1;
    if (file.refusal) {
      this.refused(file.refusal);
      return -1;
    }
    try {
      // One buffer for every file of the packet (it grows to the largest).
      const r = readIntoSync(this.pfs, file.rel, { kind: "seat" }, this.buf);
      this.buf = r.buf;
      return r.length;
    } catch (e) {
      if (!isWorkbenchError(e)) throw e;
      const reason = refusalOf(e);
      if (reason !== null) this.refused({ relPath: file.rel, code: reason, message: e.message });
      return -1;
    }
  }

  private refused(w: FileWarning): void {
    this.warn(refusedSeatReason(w), "", "");
    this.fileWarnings.push(w);
  }

  private tooDeep(file: SeatFileRef): void {
    this.warn(TOO_DEEP_SEAT_REASON, "", "");
    this.fileWarnings.push({ relPath: file.rel, code: "too_deep", message: `${file.rel}: ${TOO_DEEP_REASON}.` });
  }

  private readScanned(file: SeatFileRef): boolean {
    const n = this.read(file);
    if (n < 0) return false;
    const bytes = this.buf;
    const outcome = scanSeatFile(bytes, n, this.spans, this.onElement);
    if (outcome === ScanOutcome.RESTART) throw RESTART;
    // The scanner fails a file nested too deep as it fails invalid JSON; only the first says so.
    if (outcome === ScanOutcome.FAILED && tooDeep(utf8(bytes, 0, n))) this.tooDeep(file);
    return outcome === ScanOutcome.OK;
  }

  /**
   * One element of a findings array (the scanner's callback): validated, then merged. Clean
   * fields (JSON-safe ASCII, already normalised) are used as bytes — the unit is looked up
   * by the composite's bytes and texts are compared with the unit's before anything is
   * copied; anything else goes through normalizeText like the JSON.parse decoder.
   */
  private readonly onElement = (sp: FindingSpans): void => {
    if (sp.elementType !== T_OBJECT) {
      // An array has no kind/path/symbol: it fails on the path/symbol check.
      this.warn(sp.elementType === T_ARRAY ? REASON_NO_PATH_OR_SYMBOL : REASON_NOT_OBJECT, "", "");
      return;
    }
    const b = sp.buf;
    const type = sp.type;
    const start = sp.start;
    const end = sp.end;
    const flags = sp.flags;

    // kind (absent, null or empty: reuse_candidate)
    let kindIndex: number;
    const kt = type[F_KIND];
    if (kt === T_MISSING || kt === T_NULL) {
      kindIndex = 0;
    } else if (kt === T_STRING && flags[F_KIND] === 0) {
      const s = start[F_KIND]!;
      const e = end[F_KIND]!;
      kindIndex = s === e ? 0 : matchKind(b, s, e);
      if (kindIndex < 0) kindIndex = kindIndexOfText(normText(sp, F_KIND));
    } else {
      kindIndex = kindIndexOfText(normText(sp, F_KIND));
    }
    if (kindIndex < 0) {
      this.warn(reasonUnknownKind(normText(sp, F_KIND)), normText(sp, F_SYMBOL), normText(sp, F_PATH));
      return;
    }

    // path / symbol: JSON-safe ASCII is looked up by its bytes as they stand. They are the
    // normalised text unless a space leads, trails or is doubled: checked only when the lookup
    // finds no unit spelled exactly so (a unit's composite is normalised, hence so are bytes
    // equal to it with the same split).
    if (type[F_UNIT_ID] === T_STRING) {
      this.mergeNormalized(sp, kindIndex);
      return;
    }
    const pt = type[F_PATH];
    const st = type[F_SYMBOL];
    let ps = 0;
    let pl = 0;
    let ss = 0;
    let sl = 0;
    // Escaped strings are normalised as bytes (mergeNormalizedBytes); other types through strings.
    let raw = true;
    if (pt === T_STRING) {
      ps = start[F_PATH]!;
      pl = end[F_PATH]! - ps;
      if (flags[F_PATH] !== 0) raw = false;
    } else if (pt !== T_MISSING && pt !== T_NULL) {
      this.mergeNormalized(sp, kindIndex);
      return;
    }
    if (st === T_STRING) {
      ss = start[F_SYMBOL]!;
      sl = end[F_SYMBOL]! - ss;
      if (flags[F_SYMBOL] !== 0) raw = false;
    } else if (st !== T_MISSING && st !== T_NULL) {
      this.mergeNormalized(sp, kindIndex);
      return;
    }
    if (pl === 0 && sl === 0) {
      this.warn(REASON_NO_PATH_OR_SYMBOL, "", "");
      return;
    }
    const relevance = type[F_RELEVANCE] === T_NUMBER ? numberValue(b, start[F_RELEVANCE]!, end[F_RELEVANCE]!) : relevanceOf(sp);
    if (!Number.isFinite(relevance)) {
      this.invalidRelevance(sp);
      return;
    }
    if (!raw) {
      this.mergeNormalizedBytes(sp, kindIndex, relevance);
      return;
    }
    const t = this.table;
    const h = compositeHashOf(b, ps, pl, ss, sl, kindIndex);
    let u = t.findBytes(b, ps, pl, ss, sl, kindIndex, h);
    if (!(u >= 0 && t.splitIs(u, pl)) && !(isNormal(b, ps, pl) && isNormal(b, ss, sl))) {
      this.mergeNormalizedBytes(sp, kindIndex, relevance);
      return;
    }
    if (u < 0) u = t.createBytes(b, ps, pl, ss, sl, kindIndex, h, this.iteration);
    const e = t.attrFor(u, this.producer);
    t.observeNumbers(u, relevance, this.iteration);
    this.observeTexts(sp, u, e);
  };

  /** A finding whose relevance is not a finite number: the reference's warning, after the path/symbol check it makes first. */
  private invalidRelevance(sp: FindingSpans): void {
    const path = normText(sp, F_PATH);
    const symbol = normText(sp, F_SYMBOL);
    if (path === "" && symbol === "") this.warn(REASON_NO_PATH_OR_SYMBOL, "", "");
    else this.warn(REASON_NON_NUMERIC_RELEVANCE, symbol, path);
  }

  /**
   * A finding whose path or symbol is not normalised as it stands (a space at an end or
   * doubled, a tab or newline escape): normalised as bytes into a scratch buffer and looked up
   * from there, like any other. Texts holding anything but printable ASCII after their escapes
   * are decoded, go through strings (mergeNormalized).
   */
  private mergeNormalizedBytes(sp: FindingSpans, kindIndex: number, relevance: number): void {
    const need = stringLength(sp, F_PATH) + stringLength(sp, F_SYMBOL) + 1;
    if (this.scratch.length < need) this.scratch = Buffer.allocUnsafe(need * 2);
    const s = this.scratch;
    const pl = normalizeInto(sp, F_PATH, s, 0);
    const sl = pl < 0 ? -1 : normalizeInto(sp, F_SYMBOL, s, pl + 1);
    if (sl < 0) {
      this.mergeNormalized(sp, kindIndex);
      return;
    }
    if (pl === 0 && sl === 0) {
      this.warn(REASON_NO_PATH_OR_SYMBOL, "", "");
      return;
    }
    const t = this.table;
    const h = compositeHashOf(s, 0, pl, pl + 1, sl, kindIndex);
    let u = t.findBytes(s, 0, pl, pl + 1, sl, kindIndex, h);
    if (u < 0) u = t.createBytes(s, 0, pl, pl + 1, sl, kindIndex, h, this.iteration);
    const e = t.attrFor(u, this.producer);
    t.observeNumbers(u, relevance, this.iteration);
    this.observeTexts(sp, u, e);
  }

  /** The rest of onElement for a finding whose path or symbol needs normalizeText, or with a unit_id. */
  private mergeNormalized(sp: FindingSpans, kindIndex: number): void {
    const path = normText(sp, F_PATH);
    const symbol = normText(sp, F_SYMBOL);
    if (path === "" && symbol === "") {
      this.warn(REASON_NO_PATH_OR_SYMBOL, "", "");
      return;
    }
    const relevance = relevanceOf(sp);
    if (!Number.isFinite(relevance)) {
      this.warn(REASON_NON_NUMERIC_RELEVANCE, symbol, path);
      return;
    }
    const t = this.table;
    const explicit = sp.type[F_UNIT_ID] === T_STRING ? (spanValue(sp, F_UNIT_ID) as string).trim() : "";
    let u: number;
    if (explicit) {
      u = t.explicitUnit(explicit, path, symbol, kindIndex, this.iteration);
    } else {
      const composite = `${path}:${symbol}:${KIND_NAMES[kindIndex]}`;
      u = t.findComposite(composite);
      if (u < 0) u = t.createComposite(composite, path, symbol, kindIndex, this.iteration);
    }
    const e = t.attrFor(u, this.producer);
    t.observeNumbers(u, relevance, this.iteration);
    this.observeTexts(sp, u, e);
  }

  /**
   * The finding's texts into unit u and its attribution entry e: signature and reuse (latest
   * per producer, first non-empty per unit), evidence and notes (first non-empty). One call
   * site per kind of text keeps the compiled merge small (it compiles sooner).
   */
  private observeTexts(sp: FindingSpans, u: number, e: number): void {
    const t = this.table;
    const ui = u * UNIT_STRIDE;
    const ai = e * ATTR_STRIDE;
    for (let k = 0; k < 2; k++) {
      const af = k === 0 ? A_SIGNATURE : A_REUSE;
      const uf = k === 0 ? U_SIGNATURE : U_REUSE;
      this.text(sp, k === 0 ? F_SIGNATURE : F_REUSE, t.ints[ui + uf]!, t.ints[ui + uf + 1]!, t.attrs[ai + af]!, t.attrs[ai + af + 1]!);
      t.setAttrText(u, e, af, t.textOff, t.textLen);
    }
    if (t.ints[ui + U_EVIDENCE + 1] === 0 || t.ints[ui + U_NOTES + 1] === 0) this.firstTexts(sp, ui);
  }

  /** Evidence and notes of a unit that has none yet (first non-empty wins). */
  private firstTexts(sp: FindingSpans, ui: number): void {
    const t = this.table;
    for (let k = 0; k < 2; k++) {
      const uf = k === 0 ? U_EVIDENCE : U_NOTES;
      if (t.ints[ui + uf + 1] !== 0) continue;
      this.text(sp, k === 0 ? F_EVIDENCE : F_NOTES, 0, 0, 0, 0);
      t.ints[ui + uf] = t.textOff;
      t.ints[ui + uf + 1] = t.textLen;
    }
  }

  /** Sets the table's (textOff, textLen) to normalizeText(finding[f]), reusing an equal candidate text. */
  private text(sp: FindingSpans, f: number, c1Off: number, c1Len: number, c2Off: number, c2Len: number): void {
    const t = this.table;
    const ty = sp.type[f];
    if (ty === T_MISSING || ty === T_NULL) {
      t.textOff = 0;
      t.textLen = 0;
      return;
    }
    if (ty === T_STRING && sp.flags[f] === 0 && t.spanText(sp.buf, sp.start[f]!, sp.end[f]!, c1Off, c1Len, c2Off, c2Len)) return;
    t.internText(normText(sp, f));
  }
}

/**
 * Reads the seat files in order and merges their findings. `decoder: "parse"` forces the
 * JSON.parse path (the reference's way; used as the fallback and to cross-check the scanner).
 */
export function collectSeats(pfs: ProjectFs, iterations: SeatIteration[], decoder: SeatDecoder = "scan"): SeatCollection {
  const sizes = seatFileSizes(pfs, iterations);
  if (decoder === "parse") return new Collector(pfs, "parse", sizes).run(iterations);
  try {
    return new Collector(pfs, "scan", sizes).run(iterations);
  } catch (e) {
    if (e !== RESTART) throw e;
    const again = new Collector(pfs, "parse", sizes).run(iterations);
    again.usedFallback = true;
    return again;
  }
}
