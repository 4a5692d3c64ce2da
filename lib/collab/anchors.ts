/**
 * Comment anchors that follow the text: a quoted range is kept as two Yjs relative positions
 * in the shared document, so edits before or inside it move the anchor instead of leaving
 * it pointing at whatever now sits at the old offsets.
 */
import { fromBase64, toBase64 } from "lib0/buffer";
import * as Y from "yjs";

export interface EncodedAnchor {
  /** Base64 Yjs relative position of the range's start. */
  start: string;
  /** Base64 Yjs relative position of the range's end. */
  end: string;
}

export interface ResolvedAnchor {
  from: number;
  to: number;
  /** The text between the positions is still the quote the comment was written on. */
  matches: boolean;
}

/** The anchor of `text`'s range [from, to). The end sticks to the character before it, so text typed right after the range stays outside. */
export function encodeAnchor(text: Y.Text, from: number, to: number): EncodedAnchor {
  const start = Y.createRelativePositionFromTypeIndex(text, from, 0);
  const end = Y.createRelativePositionFromTypeIndex(text, to, -1);
  return { start: toBase64(Y.encodeRelativePosition(start)), end: toBase64(Y.encodeRelativePosition(end)) };
}

/** Where an anchor is now in `text`'s document, or null when it cannot be placed (a foreign or corrupt anchor). */
export function resolveAnchor(text: Y.Text, anchor: EncodedAnchor, quote: string): ResolvedAnchor | null {
  const doc = text.doc;
  if (!doc) return null;
  let start: Y.AbsolutePosition | null;
  let end: Y.AbsolutePosition | null;
  try {
    start = Y.createAbsolutePositionFromRelativePosition(Y.decodeRelativePosition(fromBase64(anchor.start)), doc);
    end = Y.createAbsolutePositionFromRelativePosition(Y.decodeRelativePosition(fromBase64(anchor.end)), doc);
  } catch {
    return null;
  }
  if (!start || !end || start.type !== text || end.type !== text) return null;
  const from = start.index;
  const to = Math.max(from, end.index);
  return { from, to, matches: text.toString().slice(from, to) === quote };
}
