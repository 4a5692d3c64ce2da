/**
 * The server's "stored" notice. It carries a Yjs snapshot (state vector and delete set) of
 * what the database now holds, so an editor can tell whether its own edits are in it: the
 * notice can arrive after edits the server received too late for that store, and a bare
 * timestamp would call them saved. Deletions need the delete set: they do not advance the
 * state vector.
 */
import { fromBase64, toBase64 } from "lib0/buffer";
import * as Y from "yjs";
import { z } from "zod";

const storedMessageSchema = z.object({
  type: z.literal("stored").describe("Marks the notice the server sends after each store"),
  at: z.number().describe("When the store finished, epoch milliseconds"),
  snapshot: z.string().describe("Base64 Yjs snapshot (state vector and delete set) of the stored document"),
});

export interface StoredNotice {
  at: number;
  snapshot: Y.Snapshot;
}

/** The notice for a store of `state` (a full Yjs update), finished at `at`. */
export function storedMessage(state: Uint8Array, at: number): string {
  const { ds } = Y.decodeUpdate(state);
  const snapshot = Y.createSnapshot(ds, Y.decodeStateVector(Y.encodeStateVectorFromUpdate(state)));
  return JSON.stringify({ type: "stored", at, snapshot: toBase64(Y.encodeSnapshot(snapshot)) } satisfies z.infer<typeof storedMessageSchema>);
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
    return { at: m.data.at, snapshot: Y.decodeSnapshot(fromBase64(m.data.snapshot)) };
  } catch {
    return null;
  }
}

/** This client's own clock in the stored state. */
export function storedClockOf(notice: StoredNotice, clientId: number): number {
  return notice.snapshot.sv.get(clientId) ?? 0;
}

/**
 * The edits made in one document by its own client that no store has covered yet: insertions
 * by the client's clock, deletions (of anyone's text) by the ids they removed.
 */
export class UnstoredEdits {
  private deletes: { client: number; clock: number; len: number }[] = [];

  constructor(private readonly doc: Y.Doc) {}

  /** Records a transaction's deletions; call it for local transactions only. */
  record(tr: Y.Transaction): void {
    tr.deleteSet.clients.forEach((items, client) => {
      for (const item of items) this.deletes.push({ client, clock: item.clock, len: item.len });
    });
  }

  /** Forgets what `notice` stored; true when nothing of this client's remains unstored. */
  settle(notice: StoredNotice): boolean {
    const ds = notice.snapshot.ds;
    this.deletes = this.deletes.filter((d) => {
      for (let c = d.clock; c < d.clock + d.len; c++) if (!Y.isDeleted(ds, Y.createID(d.client, c))) return true;
      return false;
    });
    return storedClockOf(notice, this.doc.clientID) >= Y.getState(this.doc.store, this.doc.clientID) && this.deletes.length === 0;
  }
}
