import type { ValidationResult } from "./types";

/**
 * The editor's gates, kept here so they are tested without a browser. Types only: the
 * editor imports this statically, and the validator (with its tokenizer) must stay lazy.
 */

/**
 * Why `text` may not be copied or downloaded, or null when it may. `v` must be a
 * validation of exactly that text: the editor validates a deferred copy of the draft as
 * you type, and a result for an older text says nothing about what would be exported.
 */
export function exportRefusal(text: string, v: ValidationResult | null): string | null {
  if (!v) return "The checks are still loading: try again in a moment.";
  if (v.packet !== text) return "The checks have not caught up with the latest edit: try again in a moment.";
  if (v.emittable) return null;
  const blocks = v.findings.filter((f) => f.tier === "BLOCK");
  return `Refused: ${blocks.length} BLOCK finding${blocks.length === 1 ? "" : "s"} stand (${[...new Set(blocks.map((b) => b.rule))].join(", ")}). Fix ${blocks.length === 1 ? "it" : "them"} first.`;
}

export interface EmitInfo {
  /** Button text: names the revision it sends. */
  label: string;
  /** Tooltip. */
  title: string;
  /** Shown next to the button when what it sends is not what the editor shows; null otherwise. */
  note: string | null;
}

/**
 * Emit sends the approved revision (the server re-checks its gates), never the draft in
 * the editor: the label and the note say which revision goes out, so a passing draft is
 * not mistaken for what was handed off, nor a failing draft for what blocks it.
 */
export function emitInfo(p: { approvedNumber: number | null; headNumber: number }, dirty: boolean): EmitInfo {
  const n = p.approvedNumber;
  if (n === null) return { label: "Emit", title: "Emission needs a revision approved in review, without BLOCK findings", note: null };
  const differs = dirty || p.headNumber !== n;
  const draft = dirty ? "the unsaved changes" : `revision r${p.headNumber}`;
  return {
    label: `Emit r${n}`,
    title: `Hands approved revision r${n} off as approved${differs ? `, not ${draft}` : ""}; the server re-checks its gates first`,
    note: differs ? `Emit sends approved revision r${n}, not ${draft} in the editor. To hand off the draft, save it and have it approved.` : null,
  };
}
