import { Badge } from "@/components/ui/badge";
import type { Contradiction } from "@/lib/deep-context/types";

function Entry({ c, tone, label }: { c: Contradiction; tone: "warn" | "ok"; label: string }) {
  return (
    <li className="px-4 py-2 text-sm">
      <p className="flex flex-wrap items-center gap-2 font-mono text-xs">
        <Badge tone={tone}>{label}</Badge>
        {c.symbol} <span className="text-fg-muted">{c.path}</span> · {c.field}
      </p>
      <ul className="mt-1 flex flex-wrap gap-2 text-xs">
        {Object.entries(c.values).map(([seat, v]) => (
          <li key={seat} className="rounded border border-border px-2 py-0.5">
            <span className="font-medium">{seat}</span>: <span className="font-mono">{v}</span>
          </li>
        ))}
      </ul>
    </li>
  );
}

/** Contradictions that appeared or went away (matched by unit and field). */
export function ContradictionsDiff({ added, resolved, total }: { added: Contradiction[]; resolved: Contradiction[]; total: { added: number; resolved: number } }) {
  const more = total.added - added.length + (total.resolved - resolved.length);
  return (
    <>
      <ul className="divide-y divide-border" aria-label="Contradiction changes">
        {added.map((c) => (
          <Entry key={`n${c.unit_id}${c.field}`} c={c} tone="warn" label="new" />
        ))}
        {resolved.map((c) => (
          <Entry key={`r${c.unit_id}${c.field}`} c={c} tone="ok" label="resolved" />
        ))}
      </ul>
      {more > 0 ? <p className="border-t border-border px-4 py-2 text-xs text-fg-muted">{more.toLocaleString("en")} more not shown.</p> : null}
    </>
  );
}
