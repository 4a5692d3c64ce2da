import { parsePacket } from "./parse";
import { renderPacket } from "./render";
import type { PacketDocument } from "./types";

/**
 * What the packet editor's Form view edits. The markdown is the shared truth, but it cannot
 * hold every intermediate state of a field as a person types it: parsing trims a value, so
 * "Retry " (about to become "Retry a") and a section body ending in a fresh line would come
 * back without the space or the newline. The form therefore keeps the values exactly as typed
 * and treats the markdown it rendered from them as its own echo; only markdown that someone
 * else changed (a co-editor, the Markdown view, a restored snapshot) is parsed again, and even
 * then every value whose parsed form did not change keeps what this person typed.
 */
export interface PacketFormModel {
  /** The values as typed. */
  doc: PacketDocument;
  /** The markdown the model is in step with: the last one it rendered or took in. */
  markdown: string;
}

export function formModelFrom(markdown: string): PacketFormModel {
  return { doc: parsePacket(markdown), markdown };
}

/** Sets one header field's value as typed; the markdown follows. */
export function editFormField(model: PacketFormModel, index: number, value: string): PacketFormModel {
  if (!model.doc.fields[index]) return model;
  const doc = { ...model.doc, fields: model.doc.fields.map((f, i) => (i === index ? { ...f, value } : f)) };
  return { doc, markdown: renderPacket(doc) };
}

/** Sets one section's body as typed; the markdown follows. */
export function editFormSection(model: PacketFormModel, index: number, body: string): PacketFormModel {
  if (!model.doc.sections[index]) return model;
  const doc = { ...model.doc, sections: model.doc.sections.map((s, i) => (i === index ? { ...s, body } : s)) };
  return { doc, markdown: renderPacket(doc) };
}

/**
 * Brings the model in step with the shared markdown. Its own echo changes nothing; other
 * markdown is parsed, and each field or section that reads the same as this person's typed
 * value would after a round trip keeps the typed value (its trailing space, its blank lines).
 */
export function reconcileFormModel(model: PacketFormModel, markdown: string): PacketFormModel {
  if (markdown === model.markdown) return model;
  const incoming = parsePacket(markdown);
  if (incoming.kind !== model.doc.kind) return { doc: incoming, markdown };
  const seen = parsePacket(renderPacket(model.doc));
  const typedField = typedByKey(model.doc.fields, seen.fields, (f) => f.value);
  const typedSection = typedByKey(model.doc.sections, seen.sections, (s) => s.body);
  return {
    doc: {
      ...incoming,
      fields: incoming.fields.map((f) => {
        const typed = typedField.get(key(f.key, f.label));
        return typed !== undefined && typed.seen === f.value ? { ...f, value: typed.raw } : f;
      }),
      sections: incoming.sections.map((s) => {
        const typed = typedSection.get(key(s.key, s.title));
        return typed !== undefined && typed.seen === s.body ? { ...s, body: typed.raw } : s;
      }),
    },
    markdown,
  };
}

const key = (k: string, label: string) => `${k}\u0000${label}`;

/**
 * The typed value of each entry by key and label, with what a round trip makes of it. An
 * entry whose round trip changed the document's shape (a typed heading that starts a new
 * section) has no counterpart and keeps nothing.
 */
function typedByKey<T extends { key: string }>(typed: (T & { label?: string; title?: string })[], seen: (T & { label?: string; title?: string })[], value: (x: T) => string): Map<string, { raw: string; seen: string }> {
  const seenByKey = new Map(seen.map((x) => [key(x.key, x.label ?? x.title ?? ""), value(x)]));
  const out = new Map<string, { raw: string; seen: string }>();
  for (const x of typed) {
    const k = key(x.key, x.label ?? x.title ?? "");
    const s = seenByKey.get(k);
    if (s !== undefined) out.set(k, { raw: value(x), seen: s });
  }
  return out;
}
