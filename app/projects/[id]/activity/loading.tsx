/** Shown while the activity and the packet titles are read: the header and a table's outline, so nothing jumps. */
export default function ActivityLoading() {
  return (
    <div aria-busy="true">
      <header className="mb-6">
        <div className="mb-2 h-3 w-48 animate-pulse rounded bg-muted" />
        <div className="h-6 w-64 max-w-full animate-pulse rounded bg-muted" />
        <div className="mt-2 h-4 w-[36rem] max-w-full animate-pulse rounded bg-muted" />
      </header>
      <div className="space-y-3 rounded-lg border border-border bg-surface p-4" role="status" aria-live="polite">
        <span className="sr-only">Loading the agent activity</span>
        {[0, 1, 2, 3, 4].map((i) => (
          <div key={i} className="h-4 animate-pulse rounded bg-muted" style={{ width: `${95 - i * 10}%` }} />
        ))}
      </div>
    </div>
  );
}
