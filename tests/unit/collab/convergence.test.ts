import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { applyTextChange, markdownText, spliceBetween } from "../../../lib/collab/shared-text";

/** One client's action: insert a unique token, delete filler, or go offline / come back. */
type Op = { kind: "insert"; at: number } | { kind: "delete"; at: number; len: number } | { kind: "toggle" };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("insert" as const), at: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), len: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("toggle" as const) }) },
);

/**
 * Simulates `n` clients editing one Y.Text concurrently. Updates travel through a relay
 * that delivers them late and out of order; an offline client queues its updates and
 * sends them on reconnect. Deletes only remove filler characters (`.`), so every token a
 * client inserts must be present exactly once at the end.
 */
function simulate(n: number, script: { client: number; op: Op; deliver: number }[]): { texts: string[]; tokens: string[] } {
  const docs = Array.from({ length: n }, (_, i) => {
    const d = new Y.Doc();
    d.clientID = i + 1;
    return d;
  });
  markdownText(docs[0]!).insert(0, ".".repeat(40));
  const seed = Y.encodeStateAsUpdate(docs[0]!);
  for (const d of docs.slice(1)) Y.applyUpdate(d, seed);

  const inFlight: { to: number; update: Uint8Array }[] = [];
  const offline = new Set<number>();
  const outbox = new Map<number, Uint8Array[]>();
  docs.forEach((d, i) =>
    d.on("update", (u: Uint8Array, origin: unknown) => {
      if (origin === "remote") return;
      if (offline.has(i)) outbox.set(i, [...(outbox.get(i) ?? []), u]);
      else for (let j = 0; j < n; j++) if (j !== i) inFlight.push({ to: j, update: u });
    }),
  );
  const deliver = (k: number) => {
    if (inFlight.length === 0) return;
    const { to, update } = inFlight.splice(k % inFlight.length, 1)[0]!;
    if (offline.has(to)) outbox.set(-1 - to, [...(outbox.get(-1 - to) ?? []), update]);
    else Y.applyUpdate(docs[to]!, update, "remote");
  };

  const tokens: string[] = [];
  script.forEach(({ client, op, deliver: k }, step) => {
    const i = client % n;
    const text = markdownText(docs[i]!);
    const s = text.toString();
    if (op.kind === "insert") {
      const token = `<${i}:${step}>`;
      tokens.push(token);
      // Never inside another token: insert next to a filler or at an end.
      const spots = [0, s.length, ...[...s].flatMap((c, k2) => (c === "." ? [k2] : []))];
      text.insert(spots[op.at % spots.length]!, token);
    } else if (op.kind === "delete") {
      const fillers = [...s].flatMap((c, k2) => (c === "." ? [k2] : []));
      if (fillers.length) {
        const at = fillers[op.at % fillers.length]!;
        let len = 0;
        while (len < op.len && s[at + len] === ".") len++;
        text.delete(at, len);
      }
    } else if (offline.has(i)) {
      offline.delete(i);
      for (const u of outbox.get(i) ?? []) for (let j = 0; j < n; j++) if (j !== i) inFlight.push({ to: j, update: u });
      for (const u of outbox.get(-1 - i) ?? []) Y.applyUpdate(docs[i]!, u, "remote");
      outbox.delete(i);
      outbox.delete(-1 - i);
    } else {
      offline.add(i);
    }
    deliver(k);
  });
  // Everyone reconnects and the relay drains.
  for (const i of [...offline]) {
    offline.delete(i);
    for (const u of outbox.get(i) ?? []) for (let j = 0; j < n; j++) if (j !== i) inFlight.push({ to: j, update: u });
    for (const u of outbox.get(-1 - i) ?? []) Y.applyUpdate(docs[i]!, u, "remote");
  }
  while (inFlight.length) deliver(0);
  return { texts: docs.map((d) => markdownText(d).toString()), tokens };
}

const scriptArb = (n: number) => fc.array(fc.record({ client: fc.nat(n - 1), op: opArb, deliver: fc.nat() }), { minLength: 1, maxLength: 120 });

describe("concurrent editing converges", () => {
  for (const n of [2, 5]) {
    it(`${n} clients with random concurrent edits, late delivery and offline spells end with the same text and every insertion`, () => {
      fc.assert(
        fc.property(scriptArb(n), (script) => {
          const { texts, tokens } = simulate(n, script);
          for (const t of texts) expect(t).toBe(texts[0]);
          for (const token of tokens) expect(texts[0]!.split(token).length - 1).toBe(1);
        }),
        { numRuns: 150 },
      );
    });
  }
});

describe("applyTextChange", () => {
  it("turns any text into any other with one splice", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const doc = new Y.Doc();
        const t = markdownText(doc);
        t.insert(0, a);
        let updates = 0;
        doc.on("update", () => updates++);
        applyTextChange(t, b);
        expect(t.toString()).toBe(b);
        expect(updates).toBe(a === b ? 0 : 1);
      }),
    );
  });

  it("keeps a concurrent edit elsewhere in the text (a form edit does not replace the document)", () => {
    const a = new Y.Doc();
    const b = new Y.Doc();
    markdownText(a).insert(0, "**Task**: old\n\n### Out of scope\n- (none)\n");
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    applyTextChange(markdownText(a), "**Task**: new task\n\n### Out of scope\n- (none)\n");
    markdownText(b).insert(markdownText(b).length, "- no billing changes\n");
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b));
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    expect(markdownText(a).toString()).toBe("**Task**: new task\n\n### Out of scope\n- (none)\n- no billing changes\n");
    expect(markdownText(b).toString()).toBe(markdownText(a).toString());
  });

  it("describes the change as prefix, removal and insertion", () => {
    expect(spliceBetween("abcdef", "abXYef")).toEqual({ index: 2, remove: 2, insert: "XY" });
    expect(spliceBetween("aaa", "aaaa")).toEqual({ index: 3, remove: 0, insert: "a" });
    expect(spliceBetween("same", "same")).toBeNull();
  });
});
