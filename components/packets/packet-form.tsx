"use client";

import type { PacketDocument, PacketFinding } from "@/lib/packets";
import { seedRefText } from "@/lib/packets/seed-refs";
import { Badge } from "@/components/ui/badge";

function FindingChips({ findings, onReveal }: { findings: PacketFinding[]; onReveal: (f: PacketFinding) => void }) {
  if (findings.length === 0) return null;
  return (
    <span className="flex flex-wrap gap-1">
      {findings.map((f, i) => (
        <button key={`${f.rule}-${f.offset}-${i}`} type="button" onClick={() => onReveal(f)} title={`${f.message}\n${seedRefText(f.seedRef)}`} className="focus-visible:outline-2 focus-visible:outline-accent">
          <Badge tone={f.tier === "BLOCK" ? "danger" : "warn"}>{f.rule}</Badge>
        </button>
      ))}
    </span>
  );
}

/**
 * One input per header field and one text area per section, in document order; unknown
 * sections are edited like the others, never dropped. Each shows the findings inside it.
 */
export function PacketForm({
  doc,
  findings,
  onChange,
  onReveal,
  disabled = false,
}: {
  doc: PacketDocument;
  findings: PacketFinding[];
  onChange: (d: PacketDocument) => void;
  onReveal: (f: PacketFinding) => void;
  disabled?: boolean;
}) {
  const inSection = (title: string | null) => findings.filter((f) => f.section === title);
  const fieldFindings = (label: string) => findings.filter((f) => f.section === null && f.text && doc.fields.some((x) => x.label === label && x.value.includes(f.text)));
  return (
    <div className="space-y-3" data-testid="packet-form">
      <p className="text-xs text-fg-muted">{doc.kind === "brief" ? "Agent Brief (async / durable handoff)" : "Context Packet (v2)"}</p>
      {doc.fields.map((f, i) => (
        <div key={f.key} className="space-y-1">
          <div className="flex items-center gap-2">
            <label htmlFor={`field-${f.key}`} className="text-sm font-medium">
              {f.label}
            </label>
            <FindingChips findings={fieldFindings(f.label)} onReveal={onReveal} />
          </div>
          <input
            id={`field-${f.key}`}
            className="h-9 w-full rounded-md border border-border bg-surface px-3 text-sm focus-visible:outline-2 focus-visible:outline-accent"
            value={f.value}
            disabled={disabled}
            onChange={(e) => onChange({ ...doc, fields: doc.fields.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)) })}
          />
        </div>
      ))}
      {doc.sections.map((s, i) => {
        const own = inSection(s.title);
        return (
          <div key={s.key} className="space-y-1">
            <div className="flex flex-wrap items-center gap-2">
              <label htmlFor={`section-${s.key}`} className="text-sm font-medium">
                {s.title}
              </label>
              <FindingChips findings={own} onReveal={onReveal} />
            </div>
            <textarea
              id={`section-${s.key}`}
              rows={Math.min(12, Math.max(2, s.body.split("\n").length + 1))}
              spellCheck={false}
              className={`w-full rounded-md border bg-surface p-2 font-mono text-[13px] leading-6 focus-visible:outline-2 focus-visible:outline-accent ${own.some((f) => f.tier === "BLOCK") ? "border-danger" : own.length ? "border-warn" : "border-border"}`}
              value={s.body}
              disabled={disabled}
              onChange={(e) => onChange({ ...doc, sections: doc.sections.map((x, j) => (j === i ? { ...x, body: e.target.value } : x)) })}
            />
          </div>
        );
      })}
    </div>
  );
}
