"use client";

import { markdown as markdownLanguage } from "@codemirror/lang-markdown";
import { EditorState, RangeSetBuilder, StateEffect, StateField } from "@codemirror/state";
import { Decoration, EditorView, type DecorationSet } from "@codemirror/view";
import type { Awareness } from "y-protocols/awareness";
import { minimalSetup } from "codemirror";
import { yCollab } from "y-codemirror.next";
import { useEffect, useRef } from "react";
import type * as Y from "yjs";

export interface FindingMark {
  offset: number;
  length: number;
  tier: "BLOCK" | "WARN";
  id: string;
}

const setMarks = StateEffect.define<FindingMark[]>();

function build(doc: EditorState["doc"], marks: FindingMark[]): DecorationSet {
  const b = new RangeSetBuilder<Decoration>();
  let last = -1;
  for (const m of [...marks].sort((x, y) => x.offset - y.offset)) {
    const from = Math.max(m.offset, last);
    const to = Math.min(doc.length, m.offset + m.length);
    if (to <= from) continue;
    b.add(from, to, Decoration.mark({ class: m.tier === "BLOCK" ? "cm-finding-block" : "cm-finding-warn", attributes: { "data-finding": m.id, "data-tier": m.tier } }));
    last = to;
  }
  return b.finish();
}

/** Finding highlights; positions move with edits until the next validation replaces them. */
const findingField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, tr) {
    let v = value.map(tr.changes);
    for (const e of tr.effects) if (e.is(setMarks)) v = build(tr.state.doc, e.value);
    return v;
  },
  provide: (f) => EditorView.decorations.from(f),
});

const theme = EditorView.theme({
  "&": { height: "36rem", fontSize: "13px", backgroundColor: "var(--color-surface)", color: "var(--color-fg)" },
  ".cm-content": { fontFamily: "var(--font-mono, ui-monospace, monospace)", padding: "12px 0" },
  ".cm-line": { padding: "0 12px" },
  ".cm-scroller": { lineHeight: "1.6" },
  "&.cm-focused": { outline: "2px solid var(--color-accent)" },
  ".cm-finding-block": { backgroundColor: "color-mix(in oklch, var(--color-danger) 22%, transparent)", textDecoration: "underline wavy var(--color-danger)" },
  ".cm-finding-warn": { backgroundColor: "color-mix(in oklch, var(--color-warn) 25%, transparent)" },
});

/**
 * The markdown view: CodeMirror bound to the shared Y.Text, with everyone's cursors and
 * selections (y-codemirror.next) and the findings marked in place.
 */
export function MarkdownCodeMirror({ text, awareness, marks, editable, onView }: { text: Y.Text; awareness: Awareness | null; marks: FindingMark[]; editable: boolean; onView?: (view: EditorView | null) => void }) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);

  useEffect(() => {
    if (!host.current) return;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: text.toString(),
        extensions: [
          minimalSetup,
          markdownLanguage(),
          EditorView.lineWrapping,
          theme,
          findingField,
          EditorState.readOnly.of(!editable),
          EditorView.contentAttributes.of({ "aria-label": "Packet markdown", "aria-multiline": "true" }),
          yCollab(text, awareness ?? undefined),
        ],
      }),
    });
    view.current = v;
    onView?.(v);
    return () => {
      v.destroy();
      view.current = null;
      onView?.(null);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text, awareness, editable]);

  useEffect(() => {
    view.current?.dispatch({ effects: setMarks.of(marks) });
  }, [marks]);

  return <div ref={host} className="overflow-hidden rounded-md border border-border" data-testid="markdown-editor" />;
}
