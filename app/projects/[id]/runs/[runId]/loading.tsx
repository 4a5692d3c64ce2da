import { Card, CardHeader } from "@/components/ui/card";

/**
 * Shown while the run's view is computed: the first visit to a large run reads every seat
 * file, merges the findings and derives the coverage graph, which takes seconds.
 */
export default function RunLoading() {
  return (
    <div className="space-y-6" aria-busy="true">
      <header className="mb-6">
        <div className="mb-2 h-3 w-48 animate-pulse rounded bg-muted" />
        <div className="h-6 w-96 max-w-full animate-pulse rounded bg-muted" />
      </header>
      <Card>
        <CardHeader title="Reading the run packet…" description="State log, seat files, findings and the coverage graph. A large run takes a few seconds the first time; later visits are instant." />
        <div className="space-y-3 p-4" role="status" aria-live="polite">
          <span className="sr-only">Loading the run</span>
          {[0, 1, 2, 3].map((i) => (
            <div key={i} className="h-4 animate-pulse rounded bg-muted" style={{ width: `${90 - i * 15}%` }} />
          ))}
        </div>
      </Card>
      <Card>
        <div className="h-64 animate-pulse rounded-lg bg-muted/60" />
      </Card>
    </div>
  );
}
