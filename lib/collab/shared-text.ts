/**
 * The shared document of a packet: one Y.Text holding its markdown. Both editor views
 * write through applyTextChange, so a form edit becomes one small splice that merges with
 * other people's concurrent keystrokes instead of replacing the whole text.
 */
import * as Y from "yjs";

/** Name of the Y.Text inside a packet's Y.Doc. */
export const MARKDOWN_FIELD = "markdown";

export function markdownText(doc: Y.Doc): Y.Text {
  return doc.getText(MARKDOWN_FIELD);
}

/** The single contiguous change that turns `before` into `after` (common prefix and suffix kept). */
export function spliceBetween(before: string, after: string): { index: number; remove: number; insert: string } | null {
  if (before === after) return null;
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before.charCodeAt(endBefore - 1) === after.charCodeAt(endAfter - 1)) {
    endBefore--;
    endAfter--;
  }
  return { index: start, remove: endBefore - start, insert: after.slice(start, endAfter) };
}

/** Makes the shared text equal `next` with the smallest splice, in one transaction. */
export function applyTextChange(text: Y.Text, next: string, origin?: unknown): void {
  const change = spliceBetween(text.toString(), next);
  if (!change) return;
  const doc = text.doc;
  const run = () => {
    if (change.remove) text.delete(change.index, change.remove);
    if (change.insert) text.insert(change.index, change.insert);
  };
  if (doc) doc.transact(run, origin);
  else run();
}

/** A document whose text is `markdown` (the first load of a packet that was never co-edited). */
export function docFromMarkdown(markdown: string): Y.Doc {
  const doc = new Y.Doc();
  markdownText(doc).insert(0, markdown);
  return doc;
}
