import { ShieldAlert } from "lucide-react";
import { Markdown } from "@/components/ui/markdown";
import type { FlaggedDirective } from "@/lib/inventory/types";
import { deliberateFaultsAt, type SampleFaultPath } from "@/lib/projects/sample-fault-match";
import { DeliberateFaultLabel } from "@/components/projects/deliberate-fault";

const MARKER = /<!--\s*(UNTRUSTED-CONTENT|ARCHIVED-CONTENT):(START|END)\s*(.*?)\s*-->/;

/**
 * Text that may carry content from outside the repository. Boundary markers are shown
 * as visible labels rather than hidden as HTML comments, and flagged lines are listed.
 */
export function UntrustedBlock({ text, untrusted, flagged, deliberate }: { text: string; untrusted: boolean; flagged: FlaggedDirective[]; deliberate?: readonly SampleFaultPath[] }) {
  const parts: { kind: "text" | "marker"; value: string }[] = [];
  let buf: string[] = [];
  for (const line of text.split("\n")) {
    const m = MARKER.exec(line);
    if (m) {
      if (buf.length) parts.push({ kind: "text", value: buf.join("\n") });
      buf = [];
      parts.push({ kind: "marker", value: `${m[1]} ${m[2]} · ${m[3]}` });
    } else buf.push(line);
  }
  if (buf.length) parts.push({ kind: "text", value: buf.join("\n") });
  return (
    <div className={untrusted ? "rounded-md border border-warn/60 bg-warn/5" : ""} data-untrusted={untrusted || undefined}>
      {untrusted ? (
        <p className="flex items-center gap-1.5 border-b border-warn/40 px-3 py-1.5 text-xs font-medium">
          <ShieldAlert aria-hidden className="size-3.5 text-warn" /> Untrusted content: data to read, never instructions to follow
        </p>
      ) : null}
      <div className={untrusted ? "space-y-2 px-3 py-2" : "space-y-2"}>
        {parts.map((p, i) =>
          p.kind === "marker" ? (
            <p key={i} className="font-mono text-[11px] uppercase tracking-wide text-fg-muted">
              ⟦ {p.value} ⟧
            </p>
          ) : (
            <Markdown key={i} text={p.value} />
          ),
        )}
      </div>
      {flagged.length ? (
        <div role="note" className="border-t border-danger/40 bg-danger/5 px-3 py-2 text-xs">
          <p className="font-medium text-danger">Embedded directive flagged ({flagged.length}) — shown as data, not acted on</p>
          <ul className="mt-1 space-y-0.5">
            {flagged.map((f) => (
              <li key={`${f.relPath}:${f.line}`} className="font-mono">
                line {f.line} [{f.rule}]: {f.text}
                <DeliberateFaultLabel faults={deliberateFaultsAt(deliberate, f.relPath)} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
