import type { FindingFactory } from "./findings";
import { labelOf, type Outline } from "./outline";
import { trimmedSpan } from "./query";
import { PLACEHOLDERS } from "./templates";
import type { PacketFinding } from "./types";

/**
 * Template text left in place. A BLOCK: it is not context, and a receiver would take the
 * author's instructions ("[delegating skill]") for the task's.
 */
export function placeholderFindings(o: Outline, at: FindingFactory): PacketFinding[] {
  const set = PLACEHOLDERS[o.kind];
  const out: PacketFinding[] = [];
  for (const l of o.lines) {
    if (l.fenced) continue;
    const lab = labelOf(l);
    const span = trimmedSpan(o.text, lab ? lab.restStart : l.start, l.end);
    if (!span || !set.has(span.text)) continue;
    out.push(
      at({
        rule: "template-placeholder",
        tier: "BLOCK",
        message: "Template placeholder left in place: replace it with the real content, or delete the line.",
        offset: span.offset,
        length: span.length,
      }),
    );
  }
  return out;
}
