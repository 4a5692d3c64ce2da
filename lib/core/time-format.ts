/**
 * The one way the Workbench shows a point in time: "5 Feb 2026, 09:12 UTC", with the exact ISO
 * 8601 value kept beside it (for `<time dateTime>` and a hover title). UTC, and built by hand
 * rather than with Intl, so a page rendered on the server reads the same in every browser.
 */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

/** A calendar date with no time of day (state.json's `updated: 2026-02-11`): shown as a date, never given a midnight it did not say. */
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A date and time without a zone designator: JavaScript would read it in the reader's zone, so server and browser would disagree. */
const NO_ZONE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;

export interface FormattedTime {
  /** What a person reads: "5 Feb 2026, 09:12 UTC", or "11 Feb 2026" for a date without a time. */
  text: string;
  /** The exact value in ISO 8601 ("2026-02-05T09:12:00.000Z", or "2026-02-11" for a date). */
  iso: string;
  /** The value named a day, not an instant. */
  dateOnly: boolean;
}

const two = (n: number) => String(n).padStart(2, "0");

/**
 * A timestamp (ISO string, epoch milliseconds or Date) in the Workbench's format; null when it is
 * not a time at all. A date-time written without a zone is read as UTC, as the sources' times are.
 */
export function formatTimestamp(value: string | number | Date | null | undefined): FormattedTime | null {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value === "string") {
    const day = DATE_ONLY.exec(value);
    if (day) {
      const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
      const check = new Date(Date.UTC(y, m - 1, d));
      // Date.UTC rolls 2026-02-31 over into March: such a "date" is not one.
      if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return null;
      return { text: `${d} ${MONTHS[m - 1]} ${y}`, iso: value, dateOnly: true };
    }
  }
  const date = typeof value === "string" ? new Date(NO_ZONE.test(value) ? `${value.replace(" ", "T")}Z` : value) : new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const text = `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${two(date.getUTCHours())}:${two(date.getUTCMinutes())} UTC`;
  return { text, iso: date.toISOString(), dateOnly: false };
}

/** The formatted text, or the value itself when it is not a time (shown as written rather than hidden). */
export function timestampText(value: string | number | Date): string {
  return formatTimestamp(value)?.text ?? String(value);
}

const UNITS: [limitSeconds: number, seconds: number, unit: string][] = [
  [60 * 60, 60, "min"],
  [24 * 60 * 60, 60 * 60, "h"],
  [30 * 24 * 60 * 60, 24 * 60 * 60, "d"],
];

/**
 * "just now", "12 min ago", "3 h ago", "5 d ago" for the last 30 days before `nowMs`, then the
 * timestamp in the one format; a time after `nowMs` (clocks apart) counts as just now.
 */
export function relativeTime(value: string, nowMs: number): string {
  const f = formatTimestamp(value);
  if (!f) return value;
  const s = Math.max(0, Math.round((nowMs - new Date(f.iso).getTime()) / 1000));
  if (s < 60) return "just now";
  for (const [limit, size, unit] of UNITS) if (s < limit) return `${Math.floor(s / size)} ${unit} ago`;
  return f.text;
}
