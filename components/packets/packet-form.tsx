"use client";

import { useState } from "react";
import type { PacketFinding } from "@/lib/packets";
import { editFormField, editFormSection, formModelFrom, reconcileFormModel, type PacketFormModel } from "@/lib/packets/form-model";
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
 * The values shown are what the person typed (see lib/packets/form-model.ts): the shared
 * markdown is rendered from them, and only someone else's change to it is parsed back.
 */
export function PacketForm({
  markdown,
  findings,
  onMarkdown,
  onReveal,
  disabled = false,
}: {
  markdown: string;
  findings: PacketFinding[];
  onMarkdown: (next: string) => void;
  onReveal: (f: PacketFinding) => void;
  disabled?: boolean;
}) {
  const [model, setModel] = useState(() => formModelFrom(markdown));
  let current = model;
  if (model.markdown !== markdown) {
    // Someone else changed the text: take it in during this render, keeping what was typed here.
    current = reconcileFormModel(model, markdown);
    setModel(current);
  }
  const edit = (next: PacketFormModel) => {
    setModel(next);
    onMarkdown(next.markdown);
  };
  const doc = current.doc;
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
            onChange={(e) => edit(editFormField(current, i, e.target.value))}
          />
        </div>
      ))}
      {doc.sections.map((s, i) => {
        const own = inSection(s.title);
        return (
          <div key={s.key} className="space-y-1">
            <div className="flex flex-wrap items-center gap-2">
              <label htmlFor={`section-${s.key}`} className="text-sm font-medium">
                {s.title || "Untitled text"}
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
              onChange={(e) => edit(editFormSection(current, i, e.target.value))}
            />
          </div>
        );
      })}
    </div>
  );
}
