/**
 * Value coercions of the reference reducer (reduce-state.cjs@21d0218), kept to the letter:
 * every merged field goes through `normalizeText`, every number through `toNumber`.
 */

const WS_RUN = /\s+/g;
/**
 * Whether folding can change a string: whitespace other than U+0020, two spaces in a row, or
 * a space at either end. Most texts have none, and skipping the replace and trim for them
 * saves two string copies each (the same result: trim removes exactly what `\s` matches).
 */
const NEEDS_FOLDING = /[^\S ]| {2}|^ | $/;

/** `String(v ?? '')` with whitespace runs folded to one space and trimmed. */
export function normalizeText(value: unknown): string {
  const s = typeof value === "string" ? value : String(value == null ? "" : value);
  return NEEDS_FOLDING.test(s) ? s.replace(WS_RUN, " ").trim() : s;
}

export function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/** `Number(value)` when finite, else the fallback (so `"0.7"` is 0.7 and `"high"` is 0). */
export function toNumber(value: unknown, fallback = 0): number {
  const n = Number(value);
  return Number.isFinite(n) ? n : fallback;
}

/** Three decimals, the reference's rounding (half up via Math.round). */
export function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

// In JavaScript rather than node:crypto: `workbench reduce` then never loads crypto (about 2 MB).
export { sha256HexOfText as sha256Hex } from "../core/sha256-js";
import { sha256HexOfText as sha256Hex } from "../core/sha256-js";

/** `unit_id` of a finding without an explicit one: sha256 of `path:symbol:kind`, each normalised. */
export function unitIdOf(pathValue: unknown, symbolValue: unknown, kindValue: unknown): string {
  return sha256Hex(`${normalizeText(pathValue)}:${normalizeText(symbolValue)}:${normalizeText(kindValue)}`);
}

let numericCollator: Intl.Collator | undefined;

/**
 * The reference's directory/file order, `a.localeCompare(b, undefined, {numeric: true})`,
 * through one cached collator (the same comparison by definition of localeCompare).
 */
export function compareNumericNames(a: string, b: string): number {
  numericCollator ??= new Intl.Collator(undefined, { numeric: true });
  return numericCollator.compare(a, b);
}
