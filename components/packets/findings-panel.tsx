"use client";

import type { PacketFinding } from "@/lib/packets";
import { seedRefText } from "@/lib/packets/seed-refs";
import { Badge } from "@/components/ui/badge";

/**
 * The editor's findings: each check that fired, with its tier, place, message, seed line and
 * suggested rewrite; clicking one reveals its text in the editor. `findings` is null while the
 * checks are still loading.
 */
export function FindingsPanel({ findings, onReveal }: { findings: PacketFinding[] | null; onReveal: (f: PacketFinding) => void }) {
  return (
    <section aria-label="Findings">
      <h2 className="mb-1 text-xs font-semibold uppercase tracking-wide text-fg-muted">Findings {findings ? `(${findings.length})` : ""}</h2>
      {findings && findings.length === 0 ? <p className="text-sm text-ok">No findings: the packet passes every check.</p> : null}
      <ul className="max-h-[28rem] space-y-1.5 overflow-auto pr-1" data-testid="findings">
        {findings?.map((f, i) => (
          <li key={`${f.rule}-${f.offset}-${i}`}>
            <button
              type="button"
              onClick={() => onReveal(f)}
              className="w-full rounded-md border border-border p-2 text-left text-xs hover:bg-muted focus-visible:outline-2 focus-visible:outline-accent"
              data-rule={f.rule}
              data-tier={f.tier}
            >
              <span className="flex items-center gap-1.5">
                <Badge tone={f.tier === "BLOCK" ? "danger" : "warn"}>{f.tier}</Badge>
                <span className="font-mono">{f.rule}</span>
                <span className="ml-auto text-fg-muted">
                  {f.line}:{f.column}
                </span>
              </span>
              <span className="mt-1 block">{f.message}</span>
              <span className="mt-1 block text-fg-muted" data-testid="seed-ref" title={f.seedRef.quote}>
                {seedRefText(f.seedRef)}
              </span>
              {f.text ? <code className="mt-1 block truncate rounded bg-muted px-1 py-0.5">{f.text}</code> : null}
              {f.suggestion ? <span className="mt-1 block text-fg-muted">Suggested: {f.suggestion}</span> : null}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
