import { formatTimestamp, relativeTime } from "@/lib/core/time-format";

/**
 * A timestamp in the Workbench's one format ("5 Feb 2026, 09:12 UTC"; lib/core/time-format.ts),
 * with the exact ISO value in `dateTime` and on hover. A value that is not a time is shown as
 * written; a missing one says so.
 */
export function Time({ iso, missing = "not recorded" }: { iso: string | number | null | undefined; missing?: string }) {
  if (iso === null || iso === undefined || iso === "") return <span className="text-fg-muted">{missing}</span>;
  const f = formatTimestamp(iso);
  if (!f) return <span>{String(iso)}</span>;
  return (
    <time dateTime={f.iso} title={f.iso} className="tabular-nums">
      {f.text}
    </time>
  );
}

/**
 * How long ago, measured from `now` (the time the server rendered the page, so the browser
 * renders the same words), with the exact time on hover; older than 30 days, the timestamp itself.
 */
export function RelativeTime({ iso, now }: { iso: string; now: string }) {
  const f = formatTimestamp(iso);
  if (!f) return <span>{iso}</span>;
  return (
    <time dateTime={f.iso} title={`${f.text} (${f.iso})`} className="tabular-nums">
      {relativeTime(iso, new Date(now).getTime())}
    </time>
  );
}
