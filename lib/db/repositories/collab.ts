import * as Y from "yjs";
import { WorkbenchError } from "../../core/errors";
import { getDb } from "../client";
import type { AgentStamp } from "../dto";
import { writePacketDerived, type PacketDerived } from "./packets";

/** The stored co-editing state of a packet, or null when nobody has co-edited it yet. */
export async function loadDocState(packetId: string): Promise<Uint8Array | null> {
  const db = await getDb();
  const row = await db.packetDoc.findUnique({ where: { packetId } });
  return row ? new Uint8Array(row.state) : null;
}

/**
 * Stores a packet's co-editing state merged with the stored one, so an instance that has not
 * yet received another instance's edits never overwrites them (Yjs updates merge in any order).
 * The write succeeds only if the row is still what was read; otherwise it merges again.
 * Returns false when the packet is gone (deleted with its project while someone still had it
 * open): there is nothing left to store it against.
 */
export async function storeDocState(packetId: string, state: Uint8Array): Promise<boolean> {
  const db = await getDb();
  for (;;) {
    const row = await db.packetDoc.findUnique({ where: { packetId }, select: { state: true } });
    try {
      if (!row) {
        await db.packetDoc.create({ data: { packetId, state: Buffer.from(state) } });
        return true;
      }
      const merged = Buffer.from(Y.mergeUpdates([new Uint8Array(row.state), state]));
      if (merged.equals(row.state)) return true;
      const n = await db.packetDoc.updateMany({ where: { packetId, state: { equals: row.state } }, data: { state: merged } });
      if (n.count === 1) return true;
    } catch (err) {
      // P2003: the packet row the document belongs to no longer exists. P2002: another instance created the row first.
      const code = (err as { code?: unknown }).code;
      if (code === "P2003") return false;
      if (code !== "P2002") throw err;
    }
  }
}

/**
 * The packet's first co-editing state, stored create-only before any client sees it: a
 * document built afresh (new Yjs client id) each time it is loaded would merge with a copy a
 * reconnecting client still holds and double the text. When another process stored one
 * first, that one is returned. Null when the packet is gone.
 */
export async function seedDocState(packetId: string, state: Uint8Array): Promise<Uint8Array | null> {
  const db = await getDb();
  try {
    await db.packetDoc.create({ data: { packetId, state: Buffer.from(state) } });
    return state;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === "P2003") return null;
    if (code !== "P2002") throw err;
  }
  return loadDocState(packetId);
}

/** Head markdown of a packet, for seeding its shared document (null when the packet is gone). */
export async function packetHeadMarkdown(packetId: string): Promise<string | null> {
  const db = await getDb();
  const p = await db.packet.findUnique({ where: { id: packetId }, select: { headNumber: true } });
  if (!p) return null;
  const rev = await db.packetRevision.findUnique({ where: { packetId_number: { packetId, number: p.headNumber } }, select: { markdown: true } });
  return rev?.markdown ?? "";
}

export interface CommentDto {
  id: string;
  threadId: string;
  section: string | null;
  quote: string | null;
  anchorFrom: number | null;
  anchorTo: number | null;
  anchorStart: string | null;
  anchorEnd: string | null;
  body: string;
  author: string;
  resolved: boolean;
  resolvedBy: string | null;
  resolvedAt: string | null;
  createdAt: string;
}

type CommentRow = Omit<CommentDto, "resolvedAt" | "createdAt"> & { resolvedAt: Date | null; createdAt: Date; packetId: string };
const commentDto = ({ packetId: _p, ...c }: CommentRow): CommentDto => ({ ...c, resolvedAt: c.resolvedAt?.toISOString() ?? null, createdAt: c.createdAt.toISOString() });

export async function listComments(packetId: string): Promise<CommentDto[]> {
  const db = await getDb();
  return (await db.packetComment.findMany({ where: { packetId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map(commentDto);
}

export async function addComment(
  packetId: string,
  input: Pick<CommentDto, "section" | "quote" | "anchorFrom" | "anchorTo" | "anchorStart" | "anchorEnd" | "body" | "author"> & { threadId: string | null },
): Promise<CommentDto> {
  const db = await getDb();
  if (input.threadId) {
    const root = await db.packetComment.findFirst({ where: { id: input.threadId, packetId } });
    if (!root) throw new WorkbenchError("NOT_FOUND", `No comment thread ${input.threadId} on this packet.`);
  }
  const row = await db.$transaction(async (tx) => {
    const created = await tx.packetComment.create({ data: { packetId, ...input, threadId: input.threadId ?? "pending" } });
    // A root comment starts its own thread.
    return input.threadId ? created : tx.packetComment.update({ where: { id: created.id }, data: { threadId: created.id } });
  });
  return commentDto(row);
}

/** Resolves (or reopens) a whole thread. */
export async function setThreadResolved(packetId: string, threadId: string, resolved: boolean, by: string): Promise<CommentDto[]> {
  const db = await getDb();
  const n = await db.packetComment.updateMany({ where: { packetId, threadId }, data: resolved ? { resolved: true, resolvedBy: by, resolvedAt: new Date() } : { resolved: false, resolvedBy: null, resolvedAt: null } });
  if (n.count === 0) throw new WorkbenchError("NOT_FOUND", `No comment thread ${threadId} on this packet.`);
  return listComments(packetId);
}

export interface ReviewEventDto {
  id: string;
  fromStatus: string;
  toStatus: string;
  actor: string;
  revision: number;
  note: string | null;
  /** The agent (MCP token) that moved the status; null when a person did. */
  agentTokenId: string | null;
  agentName: string | null;
  createdAt: string;
}

export async function listReviewEvents(packetId: string): Promise<ReviewEventDto[]> {
  const db = await getDb();
  const rows = await db.packetReviewEvent.findMany({ where: { packetId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(({ packetId: _p, createdAt, ...r }) => ({ ...r, createdAt: createdAt.toISOString() }));
}

/**
 * Moves the review status if it is still `from` (a concurrent transition loses with
 * CONFLICT) and records who did it on which revision.
 */
export async function transitionReview(
  packetId: string,
  input: { from: string; to: string; actor: string; revision: number; note: string | null; approvedNumber: number | null; agent?: AgentStamp | null },
  /** The packet's derived rows (its search entry: the review status is a facet), in the same transaction. */
  derived?: PacketDerived,
): Promise<void> {
  const db = await getDb();
  await db.$transaction(async (tx) => {
    const moved = await tx.packet.updateMany({ where: { id: packetId, reviewStatus: input.from }, data: { reviewStatus: input.to, approvedNumber: input.approvedNumber } });
    if (moved.count !== 1) throw new WorkbenchError("CONFLICT", "The review status changed meanwhile; reload to see it.");
    await tx.packetReviewEvent.create({
      data: { packetId, fromStatus: input.from, toStatus: input.to, actor: input.actor, revision: input.revision, note: input.note, agentTokenId: input.agent?.tokenId ?? null, agentName: input.agent?.name ?? null },
    });
    await writePacketDerived(tx, packetId, derived);
  });
}

export interface SnapshotDto {
  id: string;
  name: string;
  markdown: string;
  author: string | null;
  createdAt: string;
}

export async function listSnapshots(packetId: string): Promise<SnapshotDto[]> {
  const db = await getDb();
  const rows = await db.packetSnapshot.findMany({ where: { packetId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return rows.map(({ packetId: _p, createdAt, ...r }) => ({ ...r, createdAt: createdAt.toISOString() }));
}

export async function addSnapshot(packetId: string, input: { name: string; markdown: string; author: string | null }): Promise<SnapshotDto> {
  const db = await getDb();
  const { packetId: _p, createdAt, ...r } = await db.packetSnapshot.create({ data: { packetId, ...input } });
  return { ...r, createdAt: createdAt.toISOString() };
}

export async function getSnapshot(packetId: string, id: string): Promise<SnapshotDto> {
  const db = await getDb();
  const row = await db.packetSnapshot.findFirst({ where: { id, packetId } });
  if (!row) throw new WorkbenchError("NOT_FOUND", `No snapshot ${id} of this packet.`);
  const { packetId: _p, createdAt, ...r } = row;
  return { ...r, createdAt: createdAt.toISOString() };
}
