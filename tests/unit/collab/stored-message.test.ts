import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { UnstoredEdits, parseStoredMessage, storedClockOf, storedMessage } from "../../../lib/collab/stored-message";
import { markdownText } from "../../../lib/collab/shared-text";

/** A document whose local transactions feed an UnstoredEdits, as the editor's hook does. */
function editor() {
  const doc = new Y.Doc();
  const text = markdownText(doc);
  const unstored = new UnstoredEdits(doc);
  doc.on("afterTransaction", (tr: Y.Transaction) => tr.local && unstored.record(tr));
  const notice = (at = 1) => parseStoredMessage(storedMessage(Y.encodeStateAsUpdate(doc), at))!;
  return { doc, text, unstored, notice };
}

describe("stored notice", () => {
  it("says whether this client's own insertions are in the stored state", () => {
    const e = editor();
    e.text.insert(0, "## Context Packet\n");
    const stored = e.notice(1_700_000_000_000);
    expect(stored.at).toBe(1_700_000_000_000);
    expect(storedClockOf(stored, e.doc.clientID)).toBe(Y.getState(e.doc.store, e.doc.clientID));
    e.text.insert(e.text.length, "**Task**: Persist export jobs\n");
    // An edit made after the store is not covered by that notice.
    expect(e.unstored.settle(stored)).toBe(false);
    expect(e.unstored.settle(e.notice())).toBe(true);
  });

  it("keeps a deletion unsaved until a store holds it, though deletions leave the state vector alone", () => {
    const e = editor();
    e.text.insert(0, "keep this, drop this");
    expect(e.unstored.settle(e.notice())).toBe(true);
    const before = e.notice();
    e.text.delete(9, 11);
    expect(Y.getState(e.doc.store, e.doc.clientID)).toBe(storedClockOf(before, e.doc.clientID));
    expect(e.unstored.settle(before)).toBe(false);
    expect(e.unstored.settle(e.notice())).toBe(true);
  });

  it("counts deletions of another client's text as ours to store", () => {
    const other = new Y.Doc();
    markdownText(other).insert(0, "theirs and more");
    const e = editor();
    Y.applyUpdate(e.doc, Y.encodeStateAsUpdate(other));
    const stored = e.notice();
    e.text.delete(0, 7);
    expect(e.unstored.settle(stored)).toBe(false);
    expect(e.unstored.settle(e.notice())).toBe(true);
  });

  it("ignores payloads that are not a well-formed notice", () => {
    expect(parseStoredMessage("not json")).toBeNull();
    expect(parseStoredMessage(JSON.stringify({ type: "stored", at: 1 }))).toBeNull();
    expect(parseStoredMessage(JSON.stringify({ type: "other", at: 1, snapshot: "AA==" }))).toBeNull();
    expect(parseStoredMessage(JSON.stringify({ type: "stored", at: 1, snapshot: "%%%" }))).toBeNull();
  });
});
