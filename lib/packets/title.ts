import { parsePacket } from "./parse";
import { BRIEF_TEMPLATE, PACKET_TEMPLATE } from "./templates";
import type { PacketKind } from "./types";

/** The longest title a packet keeps (the API's limit for a rename too). */
export const TITLE_MAX_CHARS = 200;

const untitled = (kind: PacketKind) => (kind === "brief" ? "Untitled brief" : "Untitled packet");

function headerLine(markdown: string): string {
  return (
    parsePacket(markdown)
      .fields.find((f) => /^(task|summary)$/i.test(f.label.replace(/[:*\s]/g, "")))
      ?.value.split("\n")[0]
      ?.trim() ?? ""
  );
}

let placeholders: Record<PacketKind, string> | null = null;

/**
 * The title a packet's text gives it: its Task line (a packet) or Summary line (a brief), or
 * "Untitled …" while that is empty or still the template's placeholder.
 */
export function titleFromText(markdown: string, kind: PacketKind): string {
  placeholders ??= { packet: headerLine(PACKET_TEMPLATE), brief: headerLine(BRIEF_TEMPLATE) };
  const value = headerLine(markdown);
  if (!value || value === placeholders[kind] || /^\[.*\]$/.test(value)) return untitled(kind);
  return value.slice(0, TITLE_MAX_CHARS);
}

/**
 * Whether a title still follows the text it was saved with: nobody renamed the packet, so
 * the next save takes the title from the new Task or Summary line. A rename to anything else
 * stops that; renaming it back to what the text says starts it again.
 */
export function titleFollowsText(title: string, markdown: string, kind: PacketKind): boolean {
  return title === titleFromText(markdown, kind);
}
