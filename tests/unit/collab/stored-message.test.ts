import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { ownEditsStored, parseStoredMessage, storedMessage } from "../../../lib/collab/stored-message";
import { markdownText } from "../../../lib/collab/shared-text";

describe("stored notice", () => {
  it("says whether this client's own edits are in the stored state", () => {
    const doc = new Y.Doc();
    const text = markdownText(doc);
    text.insert(0, "## Context Packet\n");
    const notice = parseStoredMessage(storedMessage(Y.encodeStateAsUpdate(doc), 1_700_000_000_000))!;
    expect(notice.at).toBe(1_700_000_000_000);
    expect(ownEditsStored(doc, notice)).toBe(true);
    // An edit made after the store is not covered by that notice.
    text.insert(text.length, "**Task**: Persist export jobs\n");
    expect(ownEditsStored(doc, notice)).toBe(false);
  });

  it("does not count another client's stored edits as ours", () => {
    const other = new Y.Doc();
    markdownText(other).insert(0, "theirs");
    const mine = new Y.Doc();
    Y.applyUpdate(mine, Y.encodeStateAsUpdate(other));
    markdownText(mine).insert(0, "mine ");
    expect(ownEditsStored(mine, parseStoredMessage(storedMessage(Y.encodeStateAsUpdate(other), 1))!)).toBe(false);
  });

  it("ignores payloads that are not a well-formed notice", () => {
    expect(parseStoredMessage("not json")).toBeNull();
    expect(parseStoredMessage(JSON.stringify({ type: "stored", at: 1 }))).toBeNull();
    expect(parseStoredMessage(JSON.stringify({ type: "other", at: 1, sv: "AA==" }))).toBeNull();
    expect(parseStoredMessage(JSON.stringify({ type: "stored", at: 1, sv: "%%%" }))).toBeNull();
  });
});
