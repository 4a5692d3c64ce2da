/**
 * `a.localeCompare(b)` for printable-ASCII byte strings, without making strings.
 *
 * The registry sorts tens of thousands of units by path and symbol with localeCompare (the
 * reference's order). For text made only of characters whose root-collation weights are
 * known, that order is the Unicode Collation Algorithm on two levels: primary weights over
 * the strings (letters case-blind, punctuation before digits before letters), then, when
 * those tie and the lengths are equal, tertiary weights (lowercase before uppercase) at the
 * first difference. V8 takes the same shortcut inside localeCompare, with these tables, for
 * the locales below (v8/src/objects/intl-objects.cc, kCollationWeightsL1/L3 and
 * kFastLocales); any other default locale, or any other character, goes to localeCompare.
 */

// Primary and tertiary weights of U+0000..U+007F (0: not handled here).
// prettier-ignore
const L1 = new Uint8Array([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  6, 12, 16, 28, 38, 29, 27, 15, 17, 18, 24, 32, 9, 8, 14, 25,
  39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 11, 10, 33, 34, 35, 13,
  23, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
  64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 19, 26, 20, 31, 7,
  30, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
  64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 21, 36, 22, 37, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
]);
// prettier-ignore
const L3 = new Uint8Array([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
]);

const FAST_LOCALES = ["en-US", "en", "fr", "es", "de", "pt", "it", "ca", "de-AT", "fi", "id", "id-ID", "ms", "nl", "pl", "ro", "sl", "sv", "sw", "vi", "en-DE", "en-GB"];

let fastLocale: boolean | undefined;

/** Whether localeCompare's default locale collates ASCII with the tables above. */
export function byteCollationApplies(): boolean {
  if (fastLocale === undefined) {
    try {
      const o = new Intl.Collator().resolvedOptions();
      fastLocale = FAST_LOCALES.includes(o.locale) && o.collation === "default" && o.sensitivity === "variant" && !o.numeric && o.caseFirst === "false" && !o.ignorePunctuation;
    } catch {
      fastLocale = false;
    }
  }
  return fastLocale;
}

/** Returned by compareBytes when the bytes need localeCompare. */
export const COLLATE_UNKNOWN = 2;

/**
 * localeCompare's sign (-1, 0, 1) for a[as, as + al) vs b[bs, bs + bl), or COLLATE_UNKNOWN
 * when a byte has no weight in the tables (then the caller asks localeCompare).
 */
export function compareBytes(a: Uint8Array, as: number, al: number, b: Uint8Array, bs: number, bl: number): number {
  const common = al < bl ? al : bl;
  let tertiary = 0;
  for (let i = 0; i < common; i++) {
    const x = a[as + i]!;
    const y = b[bs + i]!;
    if (x === y) {
      if (L1[x] === 0) return COLLATE_UNKNOWN;
      continue;
    }
    const wx = L1[x]!;
    const wy = L1[y]!;
    if (wx === 0 || wy === 0) return COLLATE_UNKNOWN;
    if (wx !== wy) {
      // A primary difference decides, provided the rest of both strings is plain too.
      for (let j = i + 1; j < al; j++) if (L1[a[as + j]!] === 0) return COLLATE_UNKNOWN;
      for (let j = i + 1; j < bl; j++) if (L1[b[bs + j]!] === 0) return COLLATE_UNKNOWN;
      return wx < wy ? -1 : 1;
    }
    if (tertiary === 0) tertiary = L3[x]! < L3[y]! ? -1 : L3[x]! > L3[y]! ? 1 : 0;
  }
  for (let j = common; j < al; j++) if (L1[a[as + j]!] === 0) return COLLATE_UNKNOWN;
  for (let j = common; j < bl; j++) if (L1[b[bs + j]!] === 0) return COLLATE_UNKNOWN;
  if (al !== bl) return al < bl ? -1 : 1;
  return tertiary;
}

/**
 * A number that orders texts of bytes in 0x20..0x7E as compareBytesPlain does, as far as
 * their seven bytes from `from` on go (texts equal before `from`): each byte's primary weight
 * in base 128, most significant first, 0 past the text's end (before any weight). Two texts
 * with different keys compare as their keys; equal keys say nothing.
 */
export function primaryKey(a: Uint8Array, as: number, al: number, from: number): number {
  let key = 0;
  for (let i = from; i < from + 7; i++) key = key * 128 + (i < al ? L1[a[as + i]!]! : 0);
  return key;
}

/** compareBytes for bytes already known to be all in 0x20..0x7E (no byte lacks weights). */
export function compareBytesPlain(a: Uint8Array, as: number, al: number, b: Uint8Array, bs: number, bl: number): number {
  const common = al < bl ? al : bl;
  let tertiary = 0;
  for (let i = 0; i < common; i++) {
    const x = a[as + i]!;
    const y = b[bs + i]!;
    if (x === y) continue;
    const wx = L1[x]!;
    const wy = L1[y]!;
    if (wx !== wy) return wx < wy ? -1 : 1;
    if (tertiary === 0) tertiary = L3[x]! < L3[y]! ? -1 : 1;
  }
  if (al !== bl) return al < bl ? -1 : 1;
  return tertiary;
}
