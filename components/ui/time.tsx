/** A timestamp shown in UTC (stable between server and browser), with the full value on hover. */
export function Time({ iso, withTime = false }: { iso: string | null | undefined; withTime?: boolean }) {
  if (!iso) return <span className="text-fg-muted">—</span>;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return <span>{iso}</span>;
  const text = withTime ? d.toISOString().slice(0, 16).replace("T", " ") + " UTC" : d.toISOString().slice(0, 10);
  return (
    <time dateTime={d.toISOString()} title={d.toISOString()} className="tabular-nums">
      {text}
    </time>
  );
}
