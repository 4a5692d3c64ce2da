import type { TaskEvaluation } from "@/lib/memory/desk";

/** A decision's reason tokens, each with what it means in words; `none` when there is none. */
export function ReasonList({ reasons, none }: { reasons: TaskEvaluation["reasons"]; none: string }) {
  return (
    <ul className="space-y-2 px-4 pb-3 text-sm" aria-label="Reasons">
      {reasons.length ? (
        reasons.map((r, i) => (
          <li key={`${i}-${r.reason}`} data-reason={r.reason}>
            <span className="font-mono text-xs">{r.reason}</span>
            <span className="block text-xs text-fg-muted">{r.words}</span>
          </li>
        ))
      ) : (
        <li className="text-fg-muted">{none}</li>
      )}
    </ul>
  );
}
