import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BRIEF_TEMPLATE, PACKET_TEMPLATE, parsePacket, renderPacket } from "../../../lib/packets";
import { editFormField, editFormSection, formModelFrom, reconcileFormModel, type PacketFormModel } from "../../../lib/packets/form-model";

/**
 * Types `text` into one field or section of the form a character at a time, as the browser
 * does: each keystroke is an edit of the value shown, the markdown it renders is written to
 * the shared text, and the shared text comes back to the form as its next prop.
 */
function typeInto(model: PacketFormModel, target: { field: number } | { section: number }, text: string): PacketFormModel {
  let m = model;
  for (const ch of Array.from(text)) {
    const shown = "field" in target ? m.doc.fields[target.field]!.value : m.doc.sections[target.section]!.body;
    m = "field" in target ? editFormField(m, target.field, shown + ch) : editFormSection(m, target.section, shown + ch);
    m = reconcileFormModel(m, m.markdown);
  }
  return m;
}

const emptied = (template: string) => {
  const doc = parsePacket(template);
  return renderPacket({ ...doc, fields: doc.fields.map((f) => ({ ...f, value: "" })), sections: doc.sections.map((s) => ({ ...s, body: "" })) });
};

describe("the packet form keeps what a person types", () => {
  it("keeps the spaces of a Task typed key by key", () => {
    const m = typeInto(formModelFrom(emptied(PACKET_TEMPLATE)), { field: 0 }, "Retry a failed export job");
    expect(m.doc.fields[0]!.value).toBe("Retry a failed export job");
    expect(parsePacket(m.markdown).fields[0]!.value).toBe("Retry a failed export job");
  });

  it("keeps the newlines of a list typed key by key into a section", () => {
    const m = typeInto(formModelFrom(emptied(PACKET_TEMPLATE)), { section: 1 }, "- one\n- two\n\n- three  ");
    expect(m.doc.sections[1]!.body).toBe("- one\n- two\n\n- three  ");
    expect(parsePacket(m.markdown).sections[1]!.body).toBe("- one\n- two\n\n- three");
  });

  it("keeps every field of a brief as typed", () => {
    let m = formModelFrom(emptied(BRIEF_TEMPLATE));
    m.doc.fields.forEach((_, i) => (m = typeInto(m, { field: i }, `value ${i} ünïcode 🚀 `)));
    m.doc.sections.forEach((_, i) => (m = typeInto(m, { section: i }, `line ${i}\n\n  next `)));
    m.doc.fields.forEach((f, i) => expect(f.value).toBe(`value ${i} ünïcode 🚀 `));
    m.doc.sections.forEach((s, i) => expect(s.body).toBe(`line ${i}\n\n  next `));
  });

  it("takes in a co-editor's change elsewhere and keeps the typed trailing space here", () => {
    let m = typeInto(formModelFrom(emptied(PACKET_TEMPLATE)), { field: 0 }, "Retry ");
    // Someone else types into Parent in their own form; their markdown arrives here.
    const theirs = renderPacket({ ...parsePacket(m.markdown), fields: parsePacket(m.markdown).fields.map((f, i) => (i === 1 ? { ...f, value: "cook" } : f)) });
    m = reconcileFormModel(m, theirs);
    expect(m.doc.fields[0]!.value).toBe("Retry ");
    expect(m.doc.fields[1]!.value).toBe("cook");
    expect(m.markdown).toBe(theirs);
  });

  it("takes a co-editor's change to the same field as they wrote it", () => {
    let m = typeInto(formModelFrom(emptied(PACKET_TEMPLATE)), { field: 0 }, "Retry ");
    const theirs = m.markdown.replace("**Task**: Retry ", "**Task**: Resume the export");
    m = reconcileFormModel(m, theirs);
    expect(m.doc.fields[0]!.value).toBe("Resume the export");
  });

  it("types any string, one character at a time, into any field or section of either kind", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "Z", " ", "\t", "-", "#", "*", ":", "`", "é", "🚀", "\n"), maxLength: 40 });
    fc.assert(
      fc.property(fc.constantFrom(PACKET_TEMPLATE, BRIEF_TEMPLATE), fc.nat(), fc.boolean(), text, (template, pick, inField, typed) => {
        const start = formModelFrom(emptied(template));
        const n = inField ? start.doc.fields.length : start.doc.sections.length;
        const index = pick % n;
        // A field is one line (an <input>): the browser never puts a newline in it.
        const value = inField ? typed.replace(/\n/g, " ") : typed;
        const m = typeInto(start, inField ? { field: index } : { section: index }, value);
        expect(inField ? m.doc.fields[index]!.value : m.doc.sections[index]!.body).toBe(value);
      }),
      { numRuns: 300 },
    );
  });
});

describe("titleFromText", () => {
  it("names a packet after its Task and a brief after its Summary, never after a placeholder", async () => {
    const { titleFromText, titleFollowsText } = await import("../../../lib/packets/title");
    expect(titleFromText(PACKET_TEMPLATE, "packet")).toBe("Untitled packet");
    expect(titleFromText(BRIEF_TEMPLATE, "brief")).toBe("Untitled brief");
    expect(titleFromText(PACKET_TEMPLATE.replace(/^\*\*Task\*\*:.*$/m, "**Task**:   Retry a failed export job  "), "packet")).toBe("Retry a failed export job");
    expect(titleFromText(BRIEF_TEMPLATE.replace(/^\*\*Summary:\*\*.*$/m, "**Summary:** Exports stop"), "brief")).toBe("Exports stop");
    expect(titleFromText(`**Task**: ${"x".repeat(300)}`, "packet")).toHaveLength(200);
    expect(titleFollowsText("Untitled packet", PACKET_TEMPLATE, "packet")).toBe(true);
    expect(titleFollowsText("Export retries", PACKET_TEMPLATE, "packet")).toBe(false);
  });
});
