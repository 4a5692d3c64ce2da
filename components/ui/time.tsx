/** A timestamp shown in UTC (stable between server and browser), with the full value on hover. */
export function Time({ iso, withTime = false }: { iso: string | null | undefined; withTime?: boolean }) {
  if (!iso) return <span className="text-fg-muted">—</span>;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return <span>{iso}</span>;
  const full = d.toISOString();
  const text = withTime ? full.slice(0, 16).replace("T", " ") + " UTC" : full.slice(0, 10);
  return (
    <time dateTime={full} title={full} className="tabular-nums">
      {text}
    </time>
  );
}

const UNITS: [limitSeconds: number, seconds: number, unit: string][] = [
  [60 * 60, 60, "min"],
  [24 * 60 * 60, 60 * 60, "h"],
  [30 * 24 * 60 * 60, 24 * 60 * 60, "d"],
];

/** "just now", "12 min ago", "3 h ago", "5 d ago", then the date: how long before `nowMs` `iso` was. */
export function relativeTime(iso: string, nowMs: number): string {
  const d = new Date(iso);
  const s = Math.max(0, Math.round((nowMs - d.getTime()) / 1000));
  if (s < 60) return "just now";
  for (const [limit, size, unit] of UNITS) if (s < limit) return `${Math.floor(s / size)} ${unit} ago`;
  return d.toISOString().slice(0, 10);
}

/**
 * How long ago, measured from `now` (the time the server rendered the page, so the browser
 * renders the same words), with the exact UTC time on hover.
 */
export function RelativeTime({ iso, now }: { iso: string; now: string }) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return <span>{iso}</span>;
  return (
    <time dateTime={d.toISOString()} title={d.toISOString().slice(0, 19).replace("T", " ") + " UTC"} className="tabular-nums">
      {relativeTime(iso, new Date(now).getTime())}
    </time>
  );
}
