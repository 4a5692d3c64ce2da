import { FENCE_RE } from "./lines";
import { KIND_HEADING } from "./section-keys";
import type { PacketDocument, PacketField, PacketKind, PacketSection } from "./types";

/**
 * PacketDocument → markdown in exactly the seed's layout: the heading, the header lines
 * as one paragraph, then each section after one blank line, ending with a newline.
 * Packets use `**Label**: value` and `### Title`; briefs use `**Label:** value` and
 * `**Title:**` with the body on the following lines.
 *
 * This layout is what "well-formed" means for the round trip: render(parse(x)) === x for
 * any x in it, and parse(render(d)) deep-equals d for any d in the form parse produces
 * (trimmed strings, keys as parse assigns them, an untitled section only first, no blank
 * lines in a field value). Other input parses tolerantly and renders in this layout.
 */
export function renderPacket(doc: PacketDocument): string {
  const blocks: string[] = [];
  if (doc.preamble) blocks.push(doc.preamble);
  blocks.push(KIND_HEADING[doc.kind]);
  if (doc.fields.length) blocks.push(doc.fields.map((f) => renderField(doc.kind, f)).join("\n"));
  for (const s of doc.sections) blocks.push(renderSection(doc.kind, s));
  if (doc.trailing) blocks.push(doc.trailing);
  return blocks.join("\n\n") + "\n";
}

function renderField(kind: PacketKind, f: PacketField): string {
  const label = kind === "packet" ? `**${f.label}**:` : `**${f.label}:**`;
  if (!f.value) return label;
  // A value that opens with a code fence came from a continuation line: on the label line
  // the fence would not open, and the lines after it would parse as labels and headings.
  return FENCE_RE.test(f.value) ? `${label}\n${f.value}` : `${label} ${f.value}`;
}

function renderSection(kind: PacketKind, s: PacketSection): string {
  if (!s.title) return s.body;
  const head = kind === "packet" ? `### ${s.title}` : `**${s.title}:**`;
  return s.body ? `${head}\n${s.body}` : head;
}
