import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { encodeAnchor, resolveAnchor } from "../../../lib/collab/anchors";
import { markdownText } from "../../../lib/collab/shared-text";

function shared(initial: string) {
  const doc = new Y.Doc();
  const text = markdownText(doc);
  text.insert(0, initial);
  return { doc, text };
}

describe("comment anchors", () => {
  const body = "## Agent Brief\n\n**Summary:** Exports stop after a restart\n";
  const quote = "Exports stop";

  it("follows the quoted range when text is inserted before it, also from another client", () => {
    const a = shared(body);
    const from = body.indexOf(quote);
    const anchor = encodeAnchor(a.text, from, from + quote.length);
    const b = new Y.Doc();
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a.doc));
    const bText = markdownText(b);
    bText.insert(0, "<!-- reviewed -->\n");
    Y.applyUpdate(a.doc, Y.encodeStateAsUpdate(b));
    const r = resolveAnchor(a.text, anchor, quote)!;
    expect(a.text.toString().slice(r.from, r.to)).toBe(quote);
    expect(r).toMatchObject({ from: from + "<!-- reviewed -->\n".length, matches: true });
    // The other client resolves the same anchor to the same place.
    expect(resolveAnchor(bText, anchor, quote)).toEqual(r);
  });

  it("keeps text typed right after the range outside it, and says when the quote was edited", () => {
    const { text } = shared(body);
    const from = body.indexOf(quote);
    const anchor = encodeAnchor(text, from, from + quote.length);
    text.insert(from + quote.length, " silently");
    expect(resolveAnchor(text, anchor, quote)).toMatchObject({ matches: true });
    text.delete(from, 7); // "Exports"
    text.insert(from, "Imports");
    const r = resolveAnchor(text, anchor, quote)!;
    expect(r.matches).toBe(false);
    expect(text.toString().slice(r.from, r.to)).toMatch(/ stop$/);
  });

  it("cannot place an anchor from garbage or from another document's type", () => {
    const { text } = shared(body);
    expect(resolveAnchor(text, { start: "%%", end: "%%" }, quote)).toBeNull();
    const other = shared(body);
    const foreign = encodeAnchor(other.text, 3, 8);
    expect(resolveAnchor(text, foreign, "Agent")).toBeNull();
  });
});
