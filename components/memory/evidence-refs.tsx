import type { EvidenceCheck } from "@/lib/memory/evidence";
import { Badge } from "@/components/ui/badge";

const STATUS_TONE = { present: "ok", missing: "danger", outside_project: "danger", not_a_path: "danger" } as const;

/** found → ok, not found → warn (shown, never a gate), not looked at → neutral. */
function targetTone(found: boolean | null) {
  return found === true ? "ok" : found === false ? "warn" : "neutral";
}

/**
 * Each evidence ref of a proposal with its status (the path part: the only thing that gates
 * approval) and, next to it, whether the file has the symbol or lines the ref points at.
 */
export function EvidenceRefs({ evidence }: { evidence: readonly EvidenceCheck[] }) {
  return (
    <ul className="flex flex-col gap-1 text-xs" aria-label="Evidence refs">
      {evidence.map((e) => (
        <li key={e.ref} className="flex flex-wrap items-center gap-1" data-evidence-ref={e.ref}>
          <span className="font-mono break-all">{e.ref}</span>
          <Badge tone={STATUS_TONE[e.status]} title={e.reason && e.path ? `${e.path} ${e.reason}` : e.path && e.path !== e.ref ? `resolved as ${e.path}` : undefined}>
            {e.status.replace(/_/g, " ")}
          </Badge>
          {e.symbol ? (
            <Badge tone={targetTone(e.symbol.found)} title={e.symbol.note}>
              {e.symbol.found === null ? `${e.symbol.lookFor} not checked` : e.symbol.found ? `${e.symbol.lookFor} found` : `${e.symbol.lookFor} not found`}
            </Badge>
          ) : null}
          {e.lines ? (
            <Badge tone={targetTone(e.lines.found)} title={e.lines.note}>
              {`${e.lines.start === e.lines.end ? `line ${e.lines.start}` : `lines ${e.lines.start}-${e.lines.end}`}${e.lines.found === null ? " not checked" : e.lines.found ? " present" : " not in the file"}`}
            </Badge>
          ) : null}
          {e.fragment !== undefined ? <Badge title="A #fragment is kept as written and not checked.">#{e.fragment} not checked</Badge> : null}
          {e.reason && e.status !== "present" ? (
            <span className="text-fg-muted">
              {e.path} {e.reason}
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
