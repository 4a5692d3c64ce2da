import { WorkbenchError } from "../../core/errors";
import { getDb } from "../client";
import type { AgentStamp } from "../dto";
import { bool, isoTime } from "../db-values";
import { prismaSqlTx, readSql, type SqlTx } from "../sql-tx";
import type { IndexedContent } from "./search";

/** What a save records about the markdown besides the text (from validatePacket). */
export interface RevisionCheck {
  tokenEstimate: number;
  completeness: string;
  blockCount: number;
  warnCount: number;
}

export interface PacketListItemDto {
  id: string;
  /** The revision handed off to agents, if any. */
  emittedNumber: number | null;
  /** draft | in_review | changes_requested | approved */
  reviewStatus: string;
  /** The revision the last approval froze. */
  approvedNumber: number | null;
  emittedAt: string | null;
  kind: "packet" | "brief";
  title: string;
  topicSlug: string | null;
  archived: boolean;
  headNumber: number;
  updatedAt: string;
  head: RevisionCheck | null;
  /** The delegated task's size the latest revision was checked with; null: the packet's own estimate was used. */
  taskTokens: number | null;
}

export interface RevisionSummaryDto extends RevisionCheck {
  number: number;
  /** The task size saved with this revision (the Type Surface gate's "task >= 300 tokens"); null: none was given. */
  taskTokens: number | null;
  author: string | null;
  note: string | null;
  /** The agent (MCP token) that saved it; null when a person did. */
  agentTokenId: string | null;
  agentName: string | null;
  createdAt: string;
}

export interface RevisionDto extends RevisionSummaryDto {
  markdown: string;
}

export interface PacketDto extends PacketListItemDto {
  projectId: string;
  createdAt: string;
  markdown: string;
}

type PacketRow = {
  id: string;
  projectId: string;
  kind: string;
  title: string;
  topicSlug: string | null;
  archived: boolean;
  headNumber: number;
  emittedNumber: number | null;
  emittedAt: Date | null;
  reviewStatus: string;
  approvedNumber: number | null;
  createdAt: Date;
  updatedAt: Date;
};
type RevisionRow = {
  number: number;
  markdown: string;
  taskTokens: number | null;
  tokenEstimate: number;
  completeness: string;
  blockCount: number;
  warnCount: number;
  author: string | null;
  note: string | null;
  agentTokenId: string | null;
  agentName: string | null;
  createdAt: Date;
};

const kindOf = (k: string): "packet" | "brief" => (k === "brief" ? "brief" : "packet");
const check = (r: RevisionRow): RevisionCheck => ({ tokenEstimate: r.tokenEstimate, completeness: r.completeness, blockCount: r.blockCount, warnCount: r.warnCount });
const summary = (r: RevisionRow): RevisionSummaryDto => ({
  number: r.number,
  taskTokens: r.taskTokens,
  ...check(r),
  author: r.author,
  note: r.note,
  agentTokenId: r.agentTokenId,
  agentName: r.agentName,
  createdAt: r.createdAt.toISOString(),
});
/** The revision columns an agent's write stamps. */
const stamp = (agent: AgentStamp | null | undefined) => ({ agentTokenId: agent?.tokenId ?? null, agentName: agent?.name ?? null });

function listItem(p: PacketRow, head: RevisionRow | undefined): PacketListItemDto {
  return {
    id: p.id,
    reviewStatus: p.reviewStatus,
    approvedNumber: p.approvedNumber,
    emittedNumber: p.emittedNumber,
    emittedAt: p.emittedAt?.toISOString() ?? null,
    kind: kindOf(p.kind),
    title: p.title,
    topicSlug: p.topicSlug,
    archived: p.archived,
    headNumber: p.headNumber,
    updatedAt: p.updatedAt.toISOString(),
    head: head ? check(head) : null,
    taskTokens: head?.taskTokens ?? null,
  };
}

export interface NewPacket {
  projectId: string;
  kind: "packet" | "brief";
  title: string;
  topicSlug: string | null;
  markdown: string;
  /** The delegated task's size the check used, when the caller gave one. */
  taskTokens: number | null;
  check: RevisionCheck;
  author: string | null;
  /** The agent that drafted it through MCP. */
  agent?: AgentStamp | null;
}

/**
 * What is derived from a packet and written in the same transaction as the packet (its search
 * entry, lib/search/sync.ts): given the packet as that transaction now stores it.
 */
export type PacketDerived = (tx: SqlTx, packet: IndexedContent["packets"][number]) => Promise<void>;

export type PacketTx = Parameters<Parameters<Awaited<ReturnType<typeof getDb>>["$transaction"]>[0]>[0];

/** Writes what is derived from packet `id`, from the rows `tx` has written so far. */
export async function writePacketDerived(tx: PacketTx, id: string, derived: PacketDerived | undefined): Promise<void> {
  if (!derived) return;
  const p = await tx.packet.findUnique({ where: { id }, select: { id: true, kind: true, title: true, topicSlug: true, archived: true, reviewStatus: true, updatedAt: true, headNumber: true } });
  if (!p) return;
  const head = await tx.packetRevision.findUnique({ where: { packetId_number: { packetId: id, number: p.headNumber } }, select: { markdown: true } });
  const { headNumber: _h, ...packet } = p;
  await derived(prismaSqlTx(tx), { ...packet, markdown: head?.markdown ?? "" });
}

/** A packet with its first revision. */
export async function createPacket(input: NewPacket, derived?: PacketDerived): Promise<PacketDto> {
  const db = await getDb();
  const id = await db.$transaction(async (tx) => {
    const p = await tx.packet.create({ data: { projectId: input.projectId, kind: input.kind, title: input.title, topicSlug: input.topicSlug, headNumber: 1 } });
    await tx.packetRevision.create({ data: { packetId: p.id, number: 1, markdown: input.markdown, taskTokens: input.taskTokens, ...input.check, author: input.author, note: "created", ...stamp(input.agent) } });
    await writePacketDerived(tx, p.id, derived);
    return p.id;
  });
  return getPacket(input.projectId, id);
}

export async function listPackets(projectId: string, opts: { archived?: boolean; topicSlug?: string } = {}): Promise<PacketListItemDto[]> {
  // Plain SQL, one statement with each packet's head revision: a topic page lists its packets
  // on every view (see lib/db/read-connection.ts for why not Prisma).
  type Joined = Omit<PacketRow, "archived" | "emittedAt" | "createdAt" | "updatedAt"> & { archived: unknown; emittedAt: unknown; createdAt: unknown; updatedAt: unknown } & {
    rNumber: number | null;
    rTaskTokens: number | null;
    rTokenEstimate: number;
    rCompleteness: string;
    rBlockCount: number;
    rWarnCount: number;
  };
  const rows = await readSql<Joined>(
    `SELECT p."id", p."projectId", p."kind", p."title", p."topicSlug", p."archived", p."headNumber", p."emittedNumber", p."emittedAt", p."reviewStatus", p."approvedNumber", p."createdAt", p."updatedAt",
            r."number" AS "rNumber", r."taskTokens" AS "rTaskTokens", r."tokenEstimate" AS "rTokenEstimate", r."completeness" AS "rCompleteness", r."blockCount" AS "rBlockCount", r."warnCount" AS "rWarnCount"
       FROM "Packet" p LEFT JOIN "PacketRevision" r ON r."packetId" = p."id" AND r."number" = p."headNumber"
      WHERE p."projectId" = ? AND p."archived" = ?${opts.topicSlug !== undefined ? ` AND p."topicSlug" = ?` : ""}
      ORDER BY p."updatedAt" DESC`,
    [projectId, opts.archived ?? false, ...(opts.topicSlug !== undefined ? [opts.topicSlug] : [])],
  );
  return rows.map((r) => {
    const emittedAt = isoTime(r.emittedAt);
    const p: PacketRow = { ...r, archived: bool(r.archived), emittedAt: emittedAt ? new Date(emittedAt) : null, createdAt: new Date(isoTime(r.createdAt) ?? 0), updatedAt: new Date(isoTime(r.updatedAt) ?? 0) };
    const head: RevisionRow | undefined =
      r.rNumber === null
        ? undefined
        : {
            number: r.rNumber,
            taskTokens: r.rTaskTokens,
            tokenEstimate: r.rTokenEstimate,
            completeness: r.rCompleteness,
            blockCount: r.rBlockCount,
            warnCount: r.rWarnCount,
            markdown: "",
            author: null,
            note: null,
            agentTokenId: null,
            agentName: null,
            createdAt: p.createdAt,
          };
    return listItem(p, head);
  });
}

async function packetRow(projectId: string, id: string): Promise<PacketRow> {
  const db = await getDb();
  const p = await db.packet.findFirst({ where: { id, projectId } });
  if (!p) throw new WorkbenchError("NOT_FOUND", `No packet ${id} in this project.`);
  return p;
}

export async function getPacket(projectId: string, id: string): Promise<PacketDto> {
  const p = await packetRow(projectId, id);
  const db = await getDb();
  const head = await db.packetRevision.findUnique({ where: { packetId_number: { packetId: id, number: p.headNumber } } });
  if (!head) throw new WorkbenchError("INTERNAL", `Packet ${id} has no revision ${p.headNumber}.`);
  return { ...listItem(p, head), projectId: p.projectId, createdAt: p.createdAt.toISOString(), markdown: head.markdown };
}

/**
 * Saves a new revision. `baseNumber` is the revision the editor started from: when
 * someone else saved since, the save is refused (CONFLICT) instead of silently
 * overwriting their text.
 */
export async function saveRevision(
  projectId: string,
  id: string,
  input: { markdown: string; taskTokens: number | null; check: RevisionCheck; author: string | null; note: string | null; baseNumber: number; agent?: AgentStamp | null; title?: string },
  /** The review status after this save (an approval does not carry over to new text). */
  reviewAfter: (status: string) => string = (s) => s,
  derived?: PacketDerived,
): Promise<PacketDto> {
  const before = await packetRow(projectId, id);
  const db = await getDb();
  const number = input.baseNumber + 1;
  const status = reviewAfter(before.reviewStatus);
  await db.$transaction(async (tx) => {
    // Conditional bump: only one concurrent save can move the head from baseNumber.
    const moved = await tx.packet.updateMany({ where: { id, headNumber: input.baseNumber }, data: { headNumber: number, reviewStatus: status, ...(input.title === undefined ? {} : { title: input.title }) } });
    if (moved.count !== 1) throw new WorkbenchError("CONFLICT", `The packet changed since revision ${input.baseNumber}; reload to see the latest revision before saving.`);
    await tx.packetRevision.create({ data: { packetId: id, number, markdown: input.markdown, taskTokens: input.taskTokens, ...input.check, author: input.author, note: input.note, ...stamp(input.agent) } });
    if (status !== before.reviewStatus) {
      await tx.packetReviewEvent.create({
        data: { packetId: id, fromStatus: before.reviewStatus, toStatus: status, actor: input.author ?? "someone", revision: number, note: `revision ${number} saved: it needs review again`, ...stamp(input.agent) },
      });
    }
    await writePacketDerived(tx, id, derived);
  });
  return getPacket(projectId, id);
}

export async function updatePacketMeta(projectId: string, id: string, meta: { title?: string; topicSlug?: string | null; archived?: boolean }, derived?: PacketDerived): Promise<PacketDto> {
  await packetRow(projectId, id);
  const db = await getDb();
  await db.$transaction(async (tx) => {
    await tx.packet.update({ where: { id }, data: meta });
    await writePacketDerived(tx, id, derived);
  });
  return getPacket(projectId, id);
}

export async function listRevisions(projectId: string, id: string): Promise<RevisionSummaryDto[]> {
  await packetRow(projectId, id);
  const db = await getDb();
  const rows = await db.packetRevision.findMany({ where: { packetId: id }, orderBy: { number: "desc" } });
  return rows.map(summary);
}

export async function getRevision(projectId: string, id: string, number: number): Promise<RevisionDto> {
  await packetRow(projectId, id);
  const db = await getDb();
  const r = await db.packetRevision.findUnique({ where: { packetId_number: { packetId: id, number } } });
  if (!r) throw new WorkbenchError("NOT_FOUND", `Packet ${id} has no revision ${number}.`);
  return { ...summary(r), markdown: r.markdown };
}

/** Marks a revision as the one agents receive. The caller has checked it passes the gates. */
export async function markEmitted(projectId: string, id: string, number: number): Promise<PacketDto> {
  await packetRow(projectId, id);
  const db = await getDb();
  await db.packet.update({ where: { id }, data: { emittedNumber: number, emittedAt: new Date() } });
  return getPacket(projectId, id);
}

/** The project a packet belongs to, or null when there is no such packet. */
export async function packetProjectOrNull(id: string): Promise<string | null> {
  const db = await getDb();
  return (await db.packet.findUnique({ where: { id }, select: { projectId: true } }))?.projectId ?? null;
}

/** The project a packet belongs to (for the handoff URL, which names only the packet). */
export async function packetProject(id: string): Promise<string> {
  const db = await getDb();
  const p = await db.packet.findUnique({ where: { id }, select: { projectId: true } });
  if (!p) throw new WorkbenchError("NOT_FOUND", `No packet ${id}.`);
  return p.projectId;
}
