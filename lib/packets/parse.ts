import { WorkbenchError } from "../core/errors";
import type { Line } from "./lines";
import { outline, type OutlineField, type OutlineSection } from "./outline";
import { normaliseNewlines, tidy } from "./text";
import type { PacketDocument } from "./types";

/**
 * Markdown → PacketDocument. Accepts real-world variation (CRLF, extra blank lines,
 * heading case, either bold-label style) and keeps unknown sections in order; text that
 * is not a field or under a heading becomes an untitled section. Never throws on content.
 */
export function parsePacket(markdown: string): PacketDocument {
  if (typeof markdown !== "string") throw new WorkbenchError("INVALID_INPUT", "parsePacket needs the packet's markdown as a string.");
  const o = outline(normaliseNewlines(markdown));
  return {
    kind: o.kind,
    preamble: tidy(join(o.preamble)),
    fields: o.fields.map((f) => ({ key: f.key, label: f.label, value: fieldValue(o.text, f) })),
    sections: o.sections.map((s) => ({ key: s.key, title: s.title, body: sectionBody(o.text, s) })),
    trailing: tidy(join(o.trailing)),
  };
}

const join = (lines: Line[]) => lines.map((l) => l.text).join("\n");

/**
 * Trimmed at the start too: a value that starts on an indented continuation line renders
 * as `**Label**: value` on one line, and parsing that trims it, so keeping the indent
 * would make parse(render(d)) differ from d.
 */
function fieldValue(text: string, f: OutlineField): string {
  const first = f.lines[0]!;
  const inline = text.slice(f.valueStart, first.end).trim();
  return tidy([inline, ...f.lines.slice(1).map((l) => l.text)].filter((t, i) => i > 0 || t !== "").join("\n")).trimStart();
}

function sectionBody(text: string, s: OutlineSection): string {
  const parts: string[] = [];
  if (s.head && s.inlineStart !== null) parts.push(text.slice(s.inlineStart, s.head.end).trim());
  let prev = -1;
  for (const l of s.lines) {
    // The untitled section gathers lines from around the fields: keep its paragraph breaks.
    if (!s.head && prev >= 0 && l.index > prev + 1) parts.push("");
    parts.push(l.text);
    prev = l.index;
  }
  return tidy(parts.join("\n"));
}
