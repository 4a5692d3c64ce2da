/**
 * Timezone-aware ISO 8601 timestamps as the harness reads them (`datetime.fromisoformat` after
 * turning a trailing `Z` into `+00:00`), compared at microsecond precision. Decision order per
 * gate depends on this comparison, and a tie is an evaluation error, so two spellings of the same
 * instant (`...T10:00:00Z` and `...T12:00:00+02:00`) must compare equal.
 *
 * Accepted: `YYYY-MM-DD` or `YYYYMMDD`, a `T` or space, `HH[:MM[:SS[.f]]]` (or the compact
 * `HHMM[SS]`), fraction with `.` or `,` (digits past the sixth are dropped, as Python does), and
 * `Z`, `±HH`, `±HHMM`, `±HH:MM[:SS[.f]]`. Python also takes week dates and any separator
 * character; those are refused here (stricter is the safe side).
 */

const RE = /^(\d{4})-?(\d{2})-?(\d{2})[T ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d*))?)?)?(?:(Z)|([+-])(\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?)?$/;

function daysInMonth(y: number, m: number): number {
  return [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
}

/** Days from 1970-01-01 to a proleptic Gregorian date. */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const micros = (frac: string | undefined) => Number((frac ?? "").slice(0, 6).padEnd(6, "0"));

export type ParsedTimestamp = { ok: true; epochMicros: bigint } | { ok: false; reason: "invalid" | "naive" };

/** Parses a timestamp; `naive` when it is valid but has no timezone. */
export function parseTimestamp(text: string): ParsedTimestamp {
  const m = RE.exec(text);
  if (!m) return { ok: false, reason: "invalid" };
  // A separator-less date with dashed time (or the reverse) is still ISO enough for Python; the
  // regex allows each part to be compact independently, like fromisoformat does.
  const [, ys, mos, ds, hs, mis, ss, fs, z, sign, ohs, oms, oss, ofs] = m;
  const y = Number(ys);
  const mo = Number(mos);
  const d = Number(ds);
  const h = Number(hs);
  const mi = Number(mis ?? "0");
  const s = Number(ss ?? "0");
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return { ok: false, reason: "invalid" };
  if (h > 23 || mi > 59 || s > 59) return { ok: false, reason: "invalid" };
  if (!z && !sign) return { ok: false, reason: "naive" };
  let offsetMicros = 0n;
  if (sign) {
    const oh = Number(ohs);
    const om = Number(oms ?? "0");
    const os = Number(oss ?? "0");
    if (om > 59 || os > 59) return { ok: false, reason: "invalid" };
    const total = BigInt(((oh * 60 + om) * 60 + os) * 1_000_000 + micros(ofs));
    if (total >= 86_400_000_000n) return { ok: false, reason: "invalid" };
    offsetMicros = sign === "-" ? -total : total;
  }
  const days = BigInt(daysFromCivil(y, mo, d));
  const local = days * 86_400_000_000n + BigInt(((h * 60 + mi) * 60 + s) * 1_000_000 + micros(fs));
  return { ok: true, epochMicros: local - offsetMicros };
}

/** True for a valid, timezone-aware timestamp. */
export function isAwareTimestamp(text: string): boolean {
  return parseTimestamp(text).ok;
}

/** An instant as the files write it: `2026-02-05T09:12:00Z` (milliseconds only when present). */
export function formatTimestamp(date: Date): string {
  const iso = date.toISOString();
  return iso.endsWith(".000Z") ? iso.slice(0, -5) + "Z" : iso;
}
