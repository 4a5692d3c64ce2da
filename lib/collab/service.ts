/**
 * Review of a packet: status transitions with who and when, comment threads anchored to a
 * section or a text range, named snapshots, and the review history as markdown or JSON.
 * Actors are display names (local mode) until accounts exist.
 */
import { z } from "zod";
import { writePacketSearch } from "../search/sync";
import { parseInput, WorkbenchError } from "../core/errors";
import {
  addComment,
  addSnapshot,
  getSnapshot,
  listComments,
  listReviewEvents,
  listSnapshots,
  setThreadResolved,
  transitionReview,
  type CommentDto,
  type ReviewEventDto,
  type SnapshotDto,
} from "../db/repositories/collab";
import { getPacket, getRevision, type PacketDto } from "../db/repositories/packets";
import type { AgentStamp } from "../db/dto";
import { validatePacket } from "../packets/index";
import { isReviewStatus, nextStatus } from "./review";
import { publishReviewChange } from "./review-events";
import { commentInput, resolveInput, reviewActionInput, snapshotInput } from "./schemas";

export { commentInput, resolveInput, reviewActionInput, snapshotInput };

/** A review transition; `agent` is the MCP caller it is made for, when an agent made it. */
export async function reviewPacket(projectId: string, id: string, raw: z.input<typeof reviewActionInput>, agent?: AgentStamp | null): Promise<{ packet: PacketDto; events: ReviewEventDto[] }> {
  const input = parseInput(reviewActionInput, raw);
  const p = await getPacket(projectId, id);
  if (!isReviewStatus(p.reviewStatus)) throw new WorkbenchError("INTERNAL", `Packet ${id} has an unknown review status ${p.reviewStatus}.`);
  // The stored count is what the rules said when the revision was saved; an approval is judged
  // by the rules now (a tier may have changed since), as emission is.
  const head = input.action === "approve" ? await getRevision(projectId, id, p.headNumber) : null;
  const blockCount = head ? validatePacket(head.markdown, { taskTokens: head.taskTokens }).findings.filter((f) => f.tier === "BLOCK").length : (p.head?.blockCount ?? 0);
  const to = nextStatus(p.reviewStatus, input.action, { blockCount });
  if ((input.action === "approve" || input.action === "request_changes") && input.revision !== p.headNumber) {
    throw new WorkbenchError("CONFLICT", `Revision r${input.revision} is no longer the latest: r${p.headNumber} was saved since. Review r${p.headNumber}.`);
  }
  await transitionReview(
    id,
    {
      from: p.reviewStatus,
      to,
      actor: input.actor,
      revision: p.headNumber,
      note: input.note,
      // Withdrawing an approval revokes it: nothing approved is left to emit (what was emitted stays emitted).
      approvedNumber: to === "approved" ? p.headNumber : input.action === "withdraw" && p.reviewStatus === "approved" ? null : p.approvedNumber,
      agent,
    },
    // The review status is a search facet: the entry is written with the decision.
    (tx, packet) => writePacketSearch(tx, projectId, packet),
  );
  // Agents waiting on this decision in this process wake now (after the write, so they read it).
  publishReviewChange({ projectId, packetId: id, from: p.reviewStatus, to, revision: p.headNumber });
  return { packet: await getPacket(projectId, id), events: await listReviewEvents(id) };
}

export async function packetComments(projectId: string, id: string): Promise<CommentDto[]> {
  await getPacket(projectId, id);
  return listComments(id);
}

export async function commentOnPacket(projectId: string, id: string, raw: z.input<typeof commentInput>): Promise<CommentDto> {
  const input = parseInput(commentInput, raw);
  await getPacket(projectId, id);
  return addComment(id, input);
}

export async function resolveThread(projectId: string, id: string, threadId: string, raw: z.input<typeof resolveInput>): Promise<CommentDto[]> {
  const input = resolveInput.parse(raw);
  await getPacket(projectId, id);
  return setThreadResolved(id, threadId, input.resolved, input.actor);
}

export async function packetSnapshots(projectId: string, id: string): Promise<SnapshotDto[]> {
  await getPacket(projectId, id);
  return listSnapshots(id);
}

export async function snapshotPacket(projectId: string, id: string, raw: z.input<typeof snapshotInput>): Promise<SnapshotDto> {
  const input = snapshotInput.parse(raw);
  await getPacket(projectId, id);
  return addSnapshot(id, input);
}

export async function packetSnapshot(projectId: string, id: string, snapshotId: string): Promise<SnapshotDto> {
  await getPacket(projectId, id);
  return getSnapshot(id, snapshotId);
}

export interface ReviewHistory {
  packet: { id: string; title: string; kind: string; reviewStatus: string; approvedNumber: number | null; headNumber: number };
  events: ReviewEventDto[];
  threads: { id: string; section: string | null; quote: string | null; resolved: boolean; resolvedBy: string | null; resolvedAt: string | null; comments: { author: string; body: string; createdAt: string }[] }[];
}

export async function reviewHistory(projectId: string, id: string): Promise<ReviewHistory> {
  const p = await getPacket(projectId, id);
  const comments = await listComments(id);
  const threads = new Map<string, ReviewHistory["threads"][number]>();
  for (const c of comments) {
    let t = threads.get(c.threadId);
    if (!t) {
      t = { id: c.threadId, section: c.section, quote: c.quote, resolved: c.resolved, resolvedBy: c.resolvedBy, resolvedAt: c.resolvedAt, comments: [] };
      threads.set(c.threadId, t);
    }
    t.comments.push({ author: c.author, body: c.body, createdAt: c.createdAt });
  }
  return {
    packet: { id: p.id, title: p.title, kind: p.kind, reviewStatus: p.reviewStatus, approvedNumber: p.approvedNumber, headNumber: p.headNumber },
    events: await listReviewEvents(id),
    threads: [...threads.values()],
  };
}

/** The review history as a markdown document (comment bodies are quoted, never interpreted). */
export function reviewHistoryMarkdown(h: ReviewHistory): string {
  const quote = (s: string) =>
    s
      .split("\n")
      .map((l) => `> ${l}`)
      .join("\n");
  const out = [
    `# Review history: ${h.packet.title}`,
    "",
    `Status: **${h.packet.reviewStatus}**${h.packet.approvedNumber ? ` (approved revision r${h.packet.approvedNumber})` : ""}; latest revision r${h.packet.headNumber}.`,
    "",
    "## Status changes",
    "",
  ];
  if (h.events.length === 0) out.push("(none)");
  for (const e of h.events) out.push(`- ${e.createdAt} — ${e.actor}: ${e.fromStatus} → ${e.toStatus} on r${e.revision}${e.note ? ` — ${e.note.replace(/\n/g, " ")}` : ""}`);
  out.push("", "## Comment threads", "");
  if (h.threads.length === 0) out.push("(none)");
  for (const t of h.threads) {
    out.push(`### ${t.section ? `Section: ${t.section}` : "Text"}${t.resolved ? ` (resolved by ${t.resolvedBy} at ${t.resolvedAt})` : " (open)"}`, "");
    if (t.quote) out.push(quote(t.quote), "");
    for (const c of t.comments) out.push(`- **${c.author}** (${c.createdAt}):`, "", quote(c.body).replace(/^/gm, "  "), "");
  }
  return out.join("\n").trimEnd() + "\n";
}

export { getRevision };
