/**
 * The server's "stored" notice. It carries the state vector of what the database now holds,
 * so an editor can tell whether its own edits are in it: the notice can arrive after edits
 * the server received too late for that store, and a bare timestamp would call them saved.
 */
import { fromBase64, toBase64 } from "lib0/buffer";
import * as Y from "yjs";
import { z } from "zod";

const storedMessageSchema = z.object({
  type: z.literal("stored").describe("Marks the notice the server sends after each store"),
  at: z.number().describe("When the store finished, epoch milliseconds"),
  sv: z.string().describe("Base64 Yjs state vector of the stored document"),
});

export interface StoredNotice {
  at: number;
  /** Highest stored clock per Yjs client id. */
  vector: Map<number, number>;
}

/** The notice for a store of `state` (a full Yjs update), finished at `at`. */
export function storedMessage(state: Uint8Array, at: number): string {
  return JSON.stringify({ type: "stored", at, sv: toBase64(Y.encodeStateVectorFromUpdate(state)) } satisfies z.infer<typeof storedMessageSchema>);
}

/** The notice in a stateless payload, or null when the payload is something else. */
export function parseStoredMessage(payload: string): StoredNotice | null {
  let raw: unknown;
  try {
    raw = JSON.parse(payload);
  } catch {
    return null;
  }
  const m = storedMessageSchema.safeParse(raw);
  if (!m.success) return null;
  try {
    return { at: m.data.at, vector: Y.decodeStateVector(fromBase64(m.data.sv)) };
  } catch {
    return null;
  }
}

/** Whether every edit this document's own client made is in the stored state. */
export function ownEditsStored(doc: Y.Doc, notice: StoredNotice): boolean {
  return (notice.vector.get(doc.clientID) ?? 0) >= Y.getState(doc.store, doc.clientID);
}
