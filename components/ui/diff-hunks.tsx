export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** A unified diff's hunks, added lines green and removed lines red. */
export function DiffHunks({ hunks, testId, className = "max-h-96" }: { hunks: Hunk[]; testId?: string; className?: string }) {
  return (
    <pre className={`${className} overflow-auto rounded-md border border-border text-xs`} data-testid={testId}>
      {hunks.length === 0 ? <div className="px-2 py-1 text-fg-muted">identical</div> : null}
      {hunks.map((h, i) => (
        <div key={i}>
          <div className="bg-muted px-2 text-fg-muted">{`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`}</div>
          {h.lines.map((l, j) => (
            <div key={j} className={`px-2 ${l.startsWith("+") ? "bg-ok/15" : l.startsWith("-") ? "bg-danger/15" : ""}`}>
              {l || " "}
            </div>
          ))}
        </div>
      ))}
    </pre>
  );
}
