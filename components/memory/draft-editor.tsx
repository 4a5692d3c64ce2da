"use client";

import { useEffect, useMemo, useState } from "react";
import * as Y from "yjs";
import { markdownText } from "@/lib/collab/shared-text";
import type { DraftCheck } from "@/lib/memory/bounded-brief";
import { MarkdownCodeMirror } from "@/components/packets/markdown-codemirror";
import { TokenMeter } from "@/components/packets/token-meter";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { callApi, errorMessage } from "@/lib/api/client";
import { memoryRoutes } from "@/lib/memory/schemas";
import { plural } from "@/lib/core/plural";

type Lib = typeof import("@/lib/memory/bounded-brief");

/**
 * The packet editor's markdown view and token meter on a bounded brief or primer, with the
 * skill's checks (sections, scope lines, interfaces, evidence, who made each decision, the
 * return cap item by item, the primer's topics, placeholders, the policy's token cap) run as
 * you type; writing to .coord/ is allowed once nothing blocks.
 */
export function DraftEditor({
  projectId,
  kind,
  initial,
  budget,
  target,
  actors,
}: {
  projectId: string;
  kind: "brief" | "primer";
  initial: string;
  budget: number | null;
  target: string;
  /** Actors the project's records name, accepted on decision lines besides human:<id>. */
  actors: string[];
}) {
  const doc = useMemo(() => new Y.Doc(), []);
  const text = useMemo(() => {
    const t = markdownText(doc);
    t.insert(0, initial);
    return t;
  }, [doc, initial]);
  const [markdown, setMarkdown] = useState(initial);
  const [lib, setLib] = useState<Lib | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void import("@/lib/memory/bounded-brief").then(setLib);
    const onChange = () => setMarkdown(text.toString());
    text.observe(onChange);
    return () => text.unobserve(onChange);
  }, [text]);
  const check: DraftCheck | null = useMemo(() => (lib ? lib.checkDraft(kind, markdown, budget, { actors }) : null), [lib, kind, markdown, budget, actors]);

  async function save() {
    setError(null);
    await callApi(memoryRoutes.saveDraft, { params: { id: projectId }, body: { kind, markdown } }).then(
      (r) => setSaved(r.file),
      (e: unknown) => setError(errorMessage(e)),
    );
  }

  return (
    <div className="grid gap-4 lg:grid-cols-[1fr_22rem]" data-testid="draft-editor" data-ready={lib ? "true" : undefined}>
      <MarkdownCodeMirror text={text} awareness={null} marks={[]} editable />
      <aside className="space-y-3" aria-label="Checks">
        <TokenMeter tokens={check?.tokens ?? null} budget={budget ?? 2000} tokenizer={check?.tokenizer ?? "loading…"} />
        {budget === null ? <p className="text-xs text-fg-muted">No policy cap found; the meter shows 2,000 tokens.</p> : null}
        <div className="flex items-center gap-2">
          {check ? <Badge tone={check.ready ? "ok" : "danger"}>{check.ready ? "ready to hand on" : plural(check.issues.filter((i) => i.severity !== "warning").length, "problem")}</Badge> : null}
          <Button size="sm" variant="primary" disabled={!check?.ready} onClick={() => void save()}>
            Write {target}
          </Button>
        </div>
        {saved ? (
          <p role="status" className="text-sm text-ok">
            Written to {saved}.
          </p>
        ) : null}
        {error ? (
          <p role="alert" className="text-sm text-danger">
            {error}
          </p>
        ) : null}
        <ul className="space-y-1 text-xs" data-testid="draft-issues">
          {check?.issues.map((i, n) => (
            <li key={n} className="rounded-md border border-border p-2">
              <Badge tone={i.severity === "warning" ? "warn" : "danger"}>{i.severity === "warning" ? "WARN" : "BLOCK"}</Badge> {i.message}
            </li>
          ))}
        </ul>
      </aside>
    </div>
  );
}
